//! Huge and hostile inputs, each loaded in a child process of its own so its peak memory
//! (`getrusage(RUSAGE_SELF).ru_maxrss`) is its own. The inputs are generated here, in a
//! temporary folder, never committed.
//!
//! Every case must either load within its memory budget or fail with a message that says
//! what is wrong — never panic, hang (each child has a time limit) or abort. The budget
//! for a load is peak RSS ≤ 4 × the file's size + 200 MB; for a refusal, 200 MB (the
//! input must not be allocated for). The GPU case adds the driver's own memory (Mesa's
//! software Vulkan) to that: 600 MB. README's "Reliability" section has the table this
//! prints.
//!
//! Run alone: `cargo test --test resource_limits` (a plain `main`, no test harness: the
//! parent spawns itself with `--case NAME DIR` per case; a further argument that is not
//! an option runs only the cases whose name contains it).

#[cfg(not(unix))]
fn main() {
    println!("SKIPPED: the resource-limit cases use getrusage, mkfifo and symlinks (Unix only)");
}

#[cfg(unix)]
fn main() {
    unix::main();
}

#[cfg(unix)]
mod unix {
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    use vitrine::files::walk::walk;
    use vitrine::formats::{self, LoadOptions};

    const MB: u64 = 1_000_000;
    /// Fixed part of every budget: the process, the allocator, the loader's own tables.
    const BASE: u64 = 200 * MB;
    /// A child that runs longer than this has hung.
    const TIME_LIMIT: Duration = Duration::from_secs(300);
    /// Why a GPU case is skipped (libtest's reason for `#[vitrine_test(gpu)]` tests).
    const NO_GPU: &str =
        "needs a GPU adapter (none found at build time; install mesa-vulkan-drivers)";
    /// Size of the generated PIE.
    const HUGE_PIE_BYTES: usize = 200_000_000;

    /// What a case must do.
    #[derive(Clone, Copy, PartialEq)]
    enum Expect {
        /// Load (the child prints `loaded …`).
        Load,
        /// Fail with a message containing this text.
        Refuse(&'static str),
        /// Either (the outcome depends on who runs it; the child says which and why).
        Either,
    }

    struct Case {
        name: &'static str,
        input: &'static str,
        expect: Expect,
        /// Extra budget on top of [`BASE`] (4 × the input's size for loads).
        extra: u64,
        /// Needs a GPU adapter: skipped, and listed as skipped, where the build found none
        /// (cfg `vitrine_no_gpu`); a failure where it found one and the child finds none.
        gpu: bool,
        prepare: fn(&Path) -> u64,
        run: fn(&Path) -> Result<String, String>,
    }

    fn cases() -> Vec<Case> {
        vec![
            Case {
                name: "huge_pie",
                input: "200 MB PIE, 12.5 million points",
                expect: Expect::Load,
                extra: 4 * HUGE_PIE_BYTES as u64,
                gpu: false,
                prepare: huge_pie,
                run: |d| load(&d.join("huge.pie")),
            },
            Case {
                name: "pet_4g_vertices",
                input: "PET whose MESH claims 4,294,967,295 vertices",
                expect: Expect::Refuse("vert"),
                extra: 0,
                gpu: false,
                prepare: pet_4g_vertices,
                run: |d| load(&d.join("claims.pet")),
            },
            Case {
                name: "texture_16384",
                input: "16384² texture page (PNG, 1 GiB as RGBA)",
                expect: Expect::Refuse("limit"),
                extra: 0,
                gpu: false,
                prepare: page_16384,
                run: |d| decode(&d.join("texpages/page-99-huge.png")),
            },
            Case {
                name: "texture_16384_in_view",
                input: "a model using that page, rendered",
                expect: Expect::Refuse("checkerboard"),
                extra: 400 * MB,
                gpu: true,
                prepare: page_16384,
                run: render_with_huge_page,
            },
            Case {
                name: "png_bomb",
                input: "PNG header claiming 65535² (a decompression bomb)",
                expect: Expect::Refuse("limit"),
                extra: 0,
                gpu: false,
                prepare: png_bomb,
                run: |d| decode(&d.join("bomb.png")),
            },
            Case {
                name: "truncated_png",
                input: "texture that is a truncated PNG",
                expect: Expect::Refuse("cannot decode"),
                extra: 0,
                gpu: false,
                prepare: truncated_png,
                run: |d| decode(&d.join("truncated.png")),
            },
            Case {
                name: "directory",
                input: "`folder.pie` that is a directory",
                expect: Expect::Refuse("folder"),
                extra: 0,
                gpu: false,
                prepare: |d| {
                    std::fs::create_dir_all(d.join("folder.pie")).unwrap();
                    0
                },
                run: |d| load(&d.join("folder.pie")),
            },
            Case {
                name: "fifo",
                input: "`pipe.pie` that is a FIFO (no writer)",
                expect: Expect::Refuse("not a regular file"),
                extra: 0,
                gpu: false,
                prepare: fifo,
                run: |d| load(&d.join("pipe.pie")),
            },
            Case {
                name: "unreadable",
                input: "PIE without read permission (mode 000)",
                // Refused: run as an unprivileged user even when the test runs as root
                // (see `run_child`), unless the system refuses that.
                expect: Expect::Either,
                extra: 0,
                gpu: false,
                prepare: unreadable,
                run: run_unreadable,
            },
            Case {
                name: "symlink_loop",
                input: "folder scanned with a symlink loop (`loop -> ..`, `self -> self`)",
                expect: Expect::Load,
                extra: 0,
                gpu: false,
                prepare: symlink_loop,
                run: run_symlink_loop,
            },
            Case {
                name: "screenshot_disk_full",
                input: "screenshot whose write fails (file size limit 4 KB, as on a full disk)",
                expect: Expect::Refuse("leaves nothing behind"),
                extra: 0,
                gpu: false,
                prepare: |_| 64 * 1024,
                run: screenshot_disk_full,
            },
            Case {
                name: "deep_archive_paths",
                input: "archive of 4 entries 32,000 folders deep (64 KB names), and a model",
                // Refused entries, the rest read: the index costs the directory, not the
                // square of a name's depth (4 GB per entry before).
                expect: Expect::Load,
                extra: 0,
                gpu: false,
                prepare: deep_archive,
                run: run_deep_archive,
            },
            Case {
                name: "non_utf8_path",
                input: "PIE whose name has a non-UTF-8 byte (`caf\\xE9.pie`)",
                expect: Expect::Load,
                extra: 0,
                gpu: false,
                prepare: non_utf8,
                run: run_non_utf8,
            },
        ]
    }

    const CUBE: &str = "PIE 3\nTYPE 200\nTEXTURE 0 page-99-huge.png 0 0\nLEVELS 1\nLEVEL 1\n\
        POINTS 4\n\t0 0 0\n\t10 0 0\n\t0 10 0\n\t0 0 10\nPOLYGONS 2\n\
        \t200 3 0 1 2 0 0 1 0 0 1\n\t200 3 0 2 3 0 0 1 0 0 1\n";

    fn huge_pie(dir: &Path) -> u64 {
        let path = dir.join("huge.pie");
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let line = "\t-12.5 7.25 3.5\n";
        let points = HUGE_PIE_BYTES / line.len();
        write!(
            f,
            "PIE 3\nTYPE 200\nTEXTURE 0 page-7.png 256 256\nLEVELS 1\nLEVEL 1\nPOINTS {points}\n"
        )
        .unwrap();
        for _ in 0..points {
            f.write_all(line.as_bytes()).unwrap();
        }
        f.write_all(b"POLYGONS 2\n\t200 3 0 1 2 0 0 1 0 0 1\n\t200 3 2 3 4 0 0 1 0 0 1\n")
            .unwrap();
        f.flush().unwrap();
        std::fs::metadata(&path).unwrap().len()
    }

    fn section(tag: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut out = tag.to_vec();
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(body);
        out
    }

    fn pet_4g_vertices(dir: &Path) -> u64 {
        let mut bytes = section(b"VERS", &[2, 1, 0xFE, 0xFF]);
        let mut mesh = u32::MAX.to_le_bytes().to_vec();
        mesh.extend_from_slice(&[0u8; 64]);
        bytes.extend(section(b"MESH", &mesh));
        std::fs::write(dir.join("claims.pet"), &bytes).unwrap();
        bytes.len() as u64
    }

    fn page_16384(dir: &Path) -> u64 {
        let pages = dir.join("texpages");
        std::fs::create_dir_all(&pages).unwrap();
        let path = pages.join("page-99-huge.png");
        if !path.exists() {
            let img = image::GrayImage::new(16384, 16384);
            img.save(&path).unwrap();
        }
        std::fs::write(dir.join("uses_huge_page.pie"), CUBE).unwrap();
        std::fs::metadata(&path).unwrap().len()
    }

    fn png_bytes(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([(x * 7 + y * 13) as u8, (x ^ y) as u8, (x * y) as u8, 255])
        });
        let mut out = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    /// CRC-32 (the PNG chunk checksum), bit by bit.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    fn png_bomb(dir: &Path) -> u64 {
        let mut png = png_bytes(4, 4);
        // IHDR data starts at 16 (8 signature + 4 length + 4 type): width, height.
        png[16..20].copy_from_slice(&65535u32.to_be_bytes());
        png[20..24].copy_from_slice(&65535u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        std::fs::write(dir.join("bomb.png"), &png).unwrap();
        png.len() as u64
    }

    fn truncated_png(dir: &Path) -> u64 {
        let png = png_bytes(256, 256);
        let cut = &png[..png.len() / 2];
        std::fs::write(dir.join("truncated.png"), cut).unwrap();
        cut.len() as u64
    }

    fn fifo(dir: &Path) -> u64 {
        let path = std::ffi::CString::new(dir.join("pipe.pie").as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
        let rc = unsafe { libc::mkfifo(path.as_ptr(), 0o644) };
        assert_eq!(rc, 0, "mkfifo failed");
        0
    }

    fn unreadable(dir: &Path) -> u64 {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("secret.pie");
        std::fs::write(&path, CUBE).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
        CUBE.len() as u64
    }

    fn run_unreadable(dir: &Path) -> Result<String, String> {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        match load(&dir.join("secret.pie")) {
            Ok(s) if root => Ok(format!(
                "{s} (running as root, and the test could not run this case as another \
                 user: file permissions are not enforced)"
            )),
            // Wrong outcomes fail the child, so the case fails whoever runs it.
            Ok(s) => panic!("read a mode-000 file as a normal user: {s}"),
            Err(e) if e.contains("ermission denied") && e.contains("secret.pie") => Err(e),
            Err(e) => panic!("unclear message: {e}"),
        }
    }

    /// The user the `unreadable` case runs as when the test runs as root (`nobody` on
    /// most systems), so that the file's mode 000 is enforced.
    const UNPRIVILEGED: u32 = 65534;

    fn symlink_loop(dir: &Path) -> u64 {
        let scan = dir.join("scan");
        std::fs::create_dir_all(scan.join("sub")).unwrap();
        std::fs::write(scan.join("sub/cube.pie"), CUBE).unwrap();
        std::os::unix::fs::symlink("..", scan.join("sub/loop")).unwrap();
        std::os::unix::fs::symlink("self", scan.join("self")).unwrap();
        0
    }

    fn run_symlink_loop(dir: &Path) -> Result<String, String> {
        let found = walk(&[dir.join("scan")], |n| {
            formats::is_model_path(Path::new(n))
        });
        if found.files.len() != 1 {
            return Err(format!("found {} model files, want 1", found.files.len()));
        }
        Ok(format!(
            "walked: 1 model, links not followed: {:?}, errors: {:?}",
            found.links_not_followed, found.errors
        ))
    }

    /// The window's screenshot writer under a file-size limit (`RLIMIT_FSIZE`, which
    /// binds root too): the write fails, and the folder must be left empty — no
    /// temporary file, no numbered name taken.
    fn screenshot_disk_full(dir: &Path) -> Result<String, String> {
        let shots = dir.join("shots");
        std::fs::create_dir_all(&shots).unwrap();
        // SAFETY: plain libc calls on this (single-threaded) child process.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: libc::RLIM_INFINITY,
            };
            assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &limit), 0);
        }
        let png = vec![7u8; 64 * 1024];
        use vitrine::app::host::Host;
        let host = vitrine::desktop::window::DesktopHost::new(None);
        let result = host.save_new(Some(&shots), "tank", "png", &png);
        let left: Vec<String> = std::fs::read_dir(&shots)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        match result {
            Ok(p) => Ok(format!("wrote {p} despite the limit")),
            Err(e) if left.is_empty() => Err(format!("{e}; the write leaves nothing behind")),
            Err(e) => Err(format!("{e}; but left {left:?}")),
        }
    }

    fn deep_archive(dir: &Path) -> u64 {
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default();
        for i in 0..4 {
            z.start_file(format!("{}x{i}.pie", "a/".repeat(32_000)), opts)
                .unwrap();
            z.write_all(b"PIE 2").unwrap();
        }
        z.start_file("ok/cube.pie", opts).unwrap();
        z.write_all(CUBE.as_bytes()).unwrap();
        let bytes = z.finish().unwrap().into_inner();
        std::fs::write(dir.join("deep.wz"), &bytes).unwrap();
        bytes.len() as u64
    }

    fn run_deep_archive(dir: &Path) -> Result<String, String> {
        let found = walk(&[dir.join("deep.wz")], |n| {
            formats::is_model_path(Path::new(n))
        });
        let refused = found
            .errors
            .iter()
            .filter(|(_, e)| e.contains("bytes long"))
            .count();
        if found.files.len() != 1 || refused != 4 {
            return Err(format!(
                "{} models, {refused} refused (want 1 and 4): {:?}",
                found.files.len(),
                found.errors
            ));
        }
        let m =
            formats::load(&found.files[0], &LoadOptions::default()).map_err(|e| e.to_string())?;
        Ok(format!(
            "loaded: {} meshes; 4 entries refused: {}",
            m.meshes.len(),
            found.errors[0].1
        ))
    }

    fn non_utf8_name(dir: &Path) -> PathBuf {
        dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9.pie"))
    }

    fn non_utf8(dir: &Path) -> u64 {
        std::fs::write(non_utf8_name(dir), CUBE).unwrap();
        CUBE.len() as u64
    }

    fn run_non_utf8(dir: &Path) -> Result<String, String> {
        let found = walk(&[dir.to_path_buf()], |n| {
            formats::is_model_path(Path::new(n))
        });
        if found.files.len() != 1 {
            return Err(format!("walk found {} files, want 1", found.files.len()));
        }
        load(&non_utf8_name(dir))
    }

    fn load(path: &Path) -> Result<String, String> {
        let m = formats::load_path(path, &LoadOptions::default()).map_err(|e| e.to_string())?;
        let points: usize = m.meshes.iter().map(|m| m.points.len()).sum();
        Ok(format!(
            "loaded: {points} points, {} triangles, {} warnings",
            m.meshes.iter().map(|m| m.triangle_count()).sum::<usize>(),
            m.diagnostics.len()
        ))
    }

    fn decode(path: &Path) -> Result<String, String> {
        let file = vitrine::files::FileRef::Disk(path.to_path_buf());
        let img = vitrine::formats::texture::decode(vitrine::files::disk(), &file)?;
        Ok(format!("decoded {}×{}", img.width(), img.height()))
    }

    fn render_with_huge_page(dir: &Path) -> Result<String, String> {
        let model = formats::load_path(&dir.join("uses_huge_page.pie"), &LoadOptions::default())
            .map_err(|e| e.to_string())?;
        let gpu = vitrine::render::Gpu::headless().map_err(|e| {
            format!("{e}, but the build found an adapter (cfg vitrine_no_gpu unset)")
        })?;
        let mut renderer =
            vitrine::render::SceneRenderer::new(&gpu.device, &gpu.queue, vitrine::files::disk());
        renderer.set_model(&gpu.device, &gpu.queue, &model);
        match renderer.warnings().first() {
            Some(w) => Err(w.clone()),
            None => Ok("uploaded the page without a warning".to_string()),
        }
    }

    fn peak_rss_bytes() -> u64 {
        // SAFETY: getrusage fills the zeroed struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
        // Linux reports kilobytes.
        usage.ru_maxrss as u64 * 1024
    }

    /// In the child: runs one case, prints its outcome and peak memory.
    fn child(name: &str, dir: &Path) {
        let case = cases().into_iter().find(|c| c.name == name).unwrap();
        let result = (case.run)(dir);
        let peak = peak_rss_bytes();
        match result {
            Ok(s) => println!("OUTCOME ok {s}"),
            Err(e) => println!("OUTCOME err {e}"),
        }
        println!("PEAK {peak}");
    }

    fn run_child(name: &str, dir: &Path) -> Result<(bool, String, u64), String> {
        use std::os::unix::process::CommandExt;
        let exe = std::env::current_exe().unwrap();
        let command = || {
            let mut c = Command::new(&exe);
            c.args(["--case", name])
                .arg(dir)
                .current_dir("/")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        };
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let unprivileged = (root && name == "unreadable")
            .then(|| {
                command()
                    .uid(UNPRIVILEGED)
                    .gid(UNPRIVILEGED)
                    .spawn()
                    .inspect_err(|e| {
                        eprintln!("cannot run the case as uid {UNPRIVILEGED} ({e}); as root")
                    })
                    .ok()
            })
            .flatten();
        let mut child = match unprivileged {
            Some(c) => c,
            None => command().spawn().map_err(|e| e.to_string())?,
        };
        let start = Instant::now();
        loop {
            if child.try_wait().map_err(|e| e.to_string())?.is_some() {
                break;
            }
            if start.elapsed() > TIME_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("hung: still running after {TIME_LIMIT:?}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "child failed ({}): {}{}",
                out.status,
                stdout,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let outcome = stdout
            .lines()
            .find_map(|l| l.strip_prefix("OUTCOME "))
            .ok_or("no outcome")?;
        let peak: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("PEAK "))
            .and_then(|p| p.parse().ok())
            .ok_or("no peak")?;
        let (ok, text) = outcome.split_once(' ').unwrap_or((outcome, ""));
        Ok((ok == "ok", text.to_string(), peak))
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().collect();
        if args.get(1).map(String::as_str) == Some("--case") {
            child(&args[2], Path::new(&args[3]));
            return;
        }
        let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
        let tmp = tempfile::tempdir().unwrap();
        {
            // Traversable by the unprivileged user the `unreadable` case runs as.
            use std::os::unix::fs::PermissionsExt;
            let open = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(tmp.path(), open).unwrap();
        }
        let (mut failures, mut passed, mut skipped) = (Vec::new(), 0, Vec::new());
        println!("| input | outcome | peak RSS | budget |\n|---|---|---|---|");
        for case in cases() {
            if filter
                .as_ref()
                .is_some_and(|f| !case.name.contains(f.as_str()))
            {
                continue;
            }
            if case.gpu && cfg!(vitrine_no_gpu) {
                println!("| {} | skipped: {NO_GPU} | | |", case.input);
                skipped.push(case.name);
                continue;
            }
            let dir = tmp.path().join(case.name);
            std::fs::create_dir_all(&dir).unwrap();
            let size = (case.prepare)(&dir);
            let budget = BASE + case.extra;
            let result = run_child(case.name, &dir);
            let (line, failure) = match result {
                Err(e) => (format!("**{e}**"), Some(e)),
                Ok((ok, text, peak)) => {
                    let mut failure = match (case.expect, ok) {
                        (Expect::Load, false) => Some(format!("did not load: {text}")),
                        (Expect::Refuse(_), true) => Some(format!("loaded: {text}")),
                        (Expect::Refuse(want), false) if !text.contains(want) => {
                            Some(format!("message lacks {want:?}: {text}"))
                        }
                        _ => None,
                    };
                    if peak > budget {
                        failure = Some(format!(
                            "peak RSS {} MB over the budget of {} MB",
                            peak / MB,
                            budget / MB
                        ));
                    }
                    let verdict = if ok { "loads" } else { "refused" };
                    (
                        format!("{verdict}: {text} | {} MB | {} MB", peak / MB, budget / MB),
                        failure,
                    )
                }
            };
            println!("| {} ({} bytes) | {line} |", case.input, size);
            match failure {
                Some(f) => failures.push(format!("{}: {f}", case.name)),
                None => passed += 1,
            }
        }
        println!(
            "resource_limits: {passed} passed; {} failed; {} skipped{}",
            failures.len(),
            skipped.len(),
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" ({}: {NO_GPU})", skipped.join(", "))
            }
        );
        if !failures.is_empty() {
            eprintln!("FAILED:\n{}", failures.join("\n"));
            std::process::exit(1);
        }
    }
}
