/* For the Wine check only (packaging/check_windows.sh), never shipped: Debian's Wine 8.0
 * has no bcryptprimitives.dll, whose ProcessPrng current Rust's std imports for random
 * numbers (Wine added it in 8.13). This stand-in answers from advapi32's RtlGenRandom
 * (SystemFunction036), which Wine 8.0 has. Real Windows 10 and later ship the DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
