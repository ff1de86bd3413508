// Runs the Khronos glTF-Validator over the files named on the command line and prints
// one JSON line per file: {"file", "errors", "warnings", "infos", "issues": [...]}.
// External resources of a .gltf (textures beside it) are read relative to the file.
// Exit status: 0 when every file validated (errors are reported, not the exit status),
// 2 when a file could not be read or parsed as glTF at all.
import { readFile } from "node:fs/promises";
import path from "node:path";
import validator from "gltf-validator";

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const bytes = await readFile(file);
    const report = await validator.validateBytes(new Uint8Array(bytes), {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then(
          (data) => new Uint8Array(data),
        ),
    });
    const names = ["error", "warning", "info", "hint"];
    console.log(
      JSON.stringify({
        file,
        errors: report.issues.numErrors,
        warnings: report.issues.numWarnings,
        infos: report.issues.numInfos,
        issues: report.issues.messages.map((m) => ({
          code: m.code,
          severity: names[m.severity] ?? String(m.severity),
          pointer: m.pointer ?? null,
          message: m.message,
        })),
      }),
    );
  } catch (e) {
    failed = true;
    console.log(JSON.stringify({ file, failure: String(e) }));
  }
}
process.exit(failed ? 2 : 0);
