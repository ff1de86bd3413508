"""For packaging/check_windows.sh: rewrites, in place, the absolute paths a Windows program
printed under Wine into the form the Linux program prints, so the two outputs can be
compared byte for byte. A path the program found a file at is written in each system's own
form: `Z:\\tmp\\x\\run with spaces\\assets\\a.png` under Wine, `/tmp/x/run with
spaces/assets/a.png` on Linux (in JSON, with its backslashes escaped). Only text after the
run folder's Windows path changes; everything else must already be the same bytes.

    python3 unix_paths.py FILE UNIX_RUN_DIR WINDOWS_RUN_DIR
"""

import json
import sys


def rewrite(line: str, win: str, unix: str) -> str:
    """Every occurrence of `win` (plain or JSON-escaped) and the path after it."""
    for w, u, escaped in ((json.dumps(win)[1:-1], unix, True), (win, unix, False)):
        while w in line:
            head, _, tail = line.partition(w)
            # The path runs to the end of the JSON string, or of the line in plain text.
            end = tail.find('"') if escaped else len(tail.rstrip("\r\n"))
            rest = tail[:end]
            rest = rest.replace("\\\\", "/") if escaped else rest.replace("\\", "/")
            line = head + u + rest + tail[end:]
    return line


def main() -> None:
    path, unix, win = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, encoding="utf-8", newline="") as f:
        lines = [rewrite(line, win, unix) for line in f]
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    main()
