//! `vitrine check`: lint model files, folders and `.wz` archives against what the games
//! accept (rules in [`crate::check::rules`]), and Warzone 2100 maps against what the game
//! refuses or complains about when it loads them (`map/…` rules, any input `vitrine info`
//! takes as a map); compiler-style text, JSON lines or SARIF.

use crate::check::{self, CheckOptions, Checker, Counts, Finding, RuleSet, config::Config, report};
use crate::files::{self, FileRef};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// What `--deny` can turn into a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Exit 1 when there are warnings (and no errors).
    Warnings,
}

/// Arguments of `vitrine check`.
#[derive(Debug, Default, Args)]
#[command(after_help = "\
Exit status:
  0  no errors (and no warnings with --deny warnings); notes never fail
  1  warnings, with --deny warnings (or deny = \"warnings\" in vitrine.toml)
  2  errors: a file the game would refuse or crash on, an unreadable input, a bad
     vitrine.toml, an unknown rule, or a usage error

A vitrine.toml at the root of a checked folder or archive (or in the current folder)
sets allow = [rules], data = [roots, relative to the file] and deny = \"warnings\".")]
pub struct CheckArgs {
    /// Model files, folders or `.wz` archives (`mod.wz!/components` for a folder inside),
    /// or Warzone 2100 maps: a map package, a map folder, a game.map, or
    /// `mp.wz!/multiplay/maps/NAME` (every level of a package is checked).
    #[arg(required_unless_present_any = ["explain", "rules"])]
    pub files: Vec<PathBuf>,
    /// The one level to check in a package or archive holding several maps (`Sk-Rush`, or
    /// its folder's name `4c-rush`).
    #[arg(long, value_name = "NAME")]
    pub level: Option<String>,
    /// A script-generated Warzone 2100 map (game.js): the seed its gameRand starts from.
    /// The game draws a new one per game and logs it ("Loaded script-generated map …
    /// with random seed: N"); the default is 5489, std::mt19937's own.
    #[arg(long, value_name = "N")]
    pub seed: Option<u32>,
    /// Data roots (`--data`, searched after the checked files' own tree, in order: a
    /// mod's own data over mp over base) and the PMF rules.
    #[command(flatten)]
    pub load: super::LoadArgs,
    /// One JSON object per finding per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the findings as SARIF 2.1.0 (for GitHub code scanning).
    #[arg(long, value_name = "OUT.sarif")]
    pub sarif: Option<PathBuf>,
    /// Fail (exit 1) on warnings too.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<Deny>,
    /// Drop the findings of this rule (repeatable).
    #[arg(long, value_name = "RULE")]
    pub allow: Vec<String>,
    /// Print what a rule checks, why, and its source, then exit.
    #[arg(long, value_name = "RULE")]
    pub explain: Option<String>,
    /// The rules to run: `game` (what Warzone 2100 refuses or complains about), `mapdb`
    /// (what the map database, maps.wz2100.net, refuses or warns about: on a map package,
    /// its script map run with seed 0 as the database runs it, unless --seed) or `all`
    /// (the default). Without inputs: list that set's rules with their level and
    /// summary (`--rules` alone: every rule), then exit.
    #[arg(long, value_name = "SET", num_args = 0..=1, value_enum)]
    pub rules: Option<Option<RulesArg>>,
}

/// `--rules`' sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// The game's rules.
    Game,
    /// The map database's rules (`mapdb/…`).
    Mapdb,
    /// Both.
    All,
}

impl RulesArg {
    fn set(self) -> RuleSet {
        match self {
            RulesArg::Game => RuleSet::Game,
            RulesArg::Mapdb => RuleSet::Mapdb,
            RulesArg::All => RuleSet::All,
        }
    }
}

/// The `--explain` text of a rule.
pub fn explain(id: &str) -> Option<String> {
    let r = check::rule(id)?;
    Some(format!(
        "{} ({}): {}\n\n{}\n\nSource: {}\n",
        r.id,
        r.level.name(),
        r.summary,
        r.explanation,
        r.source
    ))
}

/// The `vitrine.toml` that applies to `input`: at its root when it is a folder or an
/// archive. Returns the config and the folder its relative paths start from.
fn config_for(input: &Path) -> Option<(FileRef, FileRef)> {
    let r = crate::files::parse(input);
    if !files::is_dir(&r) {
        return None;
    }
    let file = r.join(check::config::FILE_NAME);
    files::is_file(&file).then_some((file, r))
}

/// Reads the configs of the inputs and of the current folder.
fn configs(inputs: &[PathBuf]) -> Result<Vec<(Config, FileRef)>, String> {
    let mut found: Vec<(FileRef, FileRef)> = inputs.iter().filter_map(|p| config_for(p)).collect();
    if found.is_empty()
        && let Some(c) = config_for(Path::new("."))
    {
        found.push(c);
    }
    found
        .into_iter()
        .map(|(file, base)| {
            let bytes = files::read(&file).map_err(|e| format!("{file}: {e}"))?;
            let text = String::from_utf8_lossy(&bytes);
            Config::parse(&text)
                .map(|c| (c, base))
                .map_err(|e| format!("{file}: {e}"))
        })
        .collect()
}

/// Runs `vitrine check`; returns the exit status (see `--help`).
pub fn run(args: &CheckArgs) -> i32 {
    let set = args.rules.flatten().map_or(RuleSet::All, RulesArg::set);
    if args.rules.is_some() && args.files.is_empty() {
        for r in check::RULES.iter().filter(|r| set.has(r.id)) {
            println!("{:<32} {:<7} {}", r.id, r.level.name(), r.summary);
        }
        return 0;
    }
    if let Some(id) = &args.explain {
        return match explain(id) {
            Some(text) => {
                print!("{text}");
                0
            }
            None => {
                eprintln!("vitrine check: no rule {id:?} (vitrine check --rules lists them)");
                2
            }
        };
    }
    let configs = match configs(&args.files) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("vitrine check: {e}");
            return 2;
        }
    };
    let mut options = CheckOptions {
        data_roots: args.load.options().data_roots,
        allow: args.allow.clone(),
    };
    let mut deny = args.deny.is_some();
    for (c, base) in &configs {
        options.allow.extend(c.allow.iter().cloned());
        options
            .data_roots
            .extend(c.data.iter().map(|d| base_join(base, d)));
        deny |= c.deny.is_some();
    }
    if let Some(bad) = options.allow.iter().find(|r| check::rule(r).is_none()) {
        eprintln!("vitrine check: --allow {bad}: no such rule (vitrine check --rules lists them)");
        return 2;
    }
    let level = args.level.as_deref();
    let (maps, models): (Vec<PathBuf>, Vec<PathBuf>) = args
        .files
        .iter()
        .cloned()
        .partition(|p| super::map_info::is_map_input(&crate::files::parse(p), level));
    let (mut findings, mut files) = check_maps(&maps, level, args.seed, &options, set);
    if set.game() && (!models.is_empty() || maps.is_empty()) {
        let (f, n) = check_inputs(&models, options);
        findings.extend(f);
        files += n;
    }
    if args.json {
        for f in &findings {
            println!("{}", report::json_line(f));
        }
    } else {
        // Names and messages come from the files: nothing in them reaches the terminal raw.
        print!("{}", files::printable_text(&report::human(&findings)));
        if !findings.is_empty() {
            println!();
        }
        let noun = if models.is_empty() { "map" } else { "file" };
        print!("{}", report::summary_of(files, noun, &findings));
    }
    if let Some(out) = &args.sarif
        && let Err(e) = files::atomic::write(out, check::sarif::to_json(&findings).as_bytes())
    {
        eprintln!("vitrine check: {}: {e}", out.display());
        return 2;
    }
    exit_code(&Counts::of(&findings), deny)
}

/// 2 with errors, 1 with warnings when denied, else 0.
pub fn exit_code(c: &Counts, deny_warnings: bool) -> i32 {
    if c.errors > 0 {
        2
    } else if deny_warnings && c.warnings > 0 {
        1
    } else {
        0
    }
}

fn base_join(base: &FileRef, rel: &str) -> FileRef {
    match base {
        FileRef::Disk(dir) => crate::files::parse(&dir.join(rel)),
        entry => entry.join(rel),
    }
}

/// Checks the maps at each input (every level, or the one named `level`) with the data
/// roots `vitrine info` uses (`--data` and vitrine.toml's, else `mp.wz` and `base.wz`
/// beside a map in `mp.wz`, else the detected Warzone 2100 installation), script maps
/// run with `seed` (`None`: the default). Returns the findings and the number of maps
/// checked.
fn check_maps(
    inputs: &[PathBuf],
    level: Option<&str>,
    seed: Option<u32>,
    options: &CheckOptions,
    set: RuleSet,
) -> (Vec<Finding>, usize) {
    let mapdb = check::mapdb::MapdbOptions {
        seed,
        today: today(),
        alone: !set.game(),
    };
    let disk = crate::files::disk();
    let (mut findings, mut maps) = (Vec::new(), 0);
    for input in inputs {
        let file = crate::files::parse(input);
        let roots = if options.data_roots.is_empty() {
            super::map_info::roots_for(&file, &[])
        } else {
            options.data_roots.clone()
        };
        let report = super::catch_per_file(&file, || {
            let mut r = check::map_check::MapReport::default();
            if set.game() {
                r = check::map_check::check_maps(disk, &file, level, &roots, seed);
            }
            if set.mapdb() {
                let db = check::mapdb::check_maps(disk, &file, level, &roots, &mapdb);
                r.maps = r.maps.max(db.maps);
                r.findings.extend(db.findings);
            }
            Ok(r)
        });
        match report {
            Ok(r) => {
                maps += r.maps;
                findings.extend(r.findings);
            }
            Err(e) => findings.push(check::walk_error(&file.to_string(), &e)),
        }
    }
    findings.retain(|f| !options.allow.iter().any(|a| a == f.rule));
    (findings, maps)
}

/// Walks the inputs, checks every model file (with a progress bar on large inputs) and
/// runs the mod-level checks on inputs (folders, archives) that hold `stats/`. Returns the findings (walk
/// order) and the number of model files checked.
pub fn check_inputs(inputs: &[PathBuf], options: CheckOptions) -> (Vec<Finding>, usize) {
    let walk = super::model_inputs(inputs);
    let mut checker = Checker::new(crate::files::disk(), options);
    let mut findings: Vec<Finding> = walk
        .errors
        .iter()
        .map(|(p, m)| check::walk_error(p, m))
        .collect();
    findings.extend(
        walk.warnings
            .iter()
            .map(|(p, m)| check::walk_warning(p, m))
            .filter(|f| !checker.allowed(f.rule)),
    );
    // Small inputs finish before a bar would be worth drawing.
    let progress = (walk.files.len() >= 200)
        .then(|| super::progress::Progress::new(walk.files.len(), "checking"));
    for (n, file) in walk.files.iter().enumerate() {
        let checked = super::catch_per_file(file, || Ok(checker.check_file(file).findings));
        match checked {
            Ok(f) => findings.extend(f),
            Err(e) => findings.push(check::walk_error(&file.to_string(), &e)),
        }
        if let Some(p) = &progress {
            p.set(n + 1, &file.file_name());
        }
    }
    if let Some(p) = progress {
        p.finish();
    }
    findings.extend(checker.check_mods(inputs));
    (findings, walk.files.len())
}

/// Today (UTC), for the database's created-date rule.
pub(crate) fn today() -> Option<jiff::civil::Date> {
    Some(
        jiff::Timestamp::now()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .date(),
    )
}
