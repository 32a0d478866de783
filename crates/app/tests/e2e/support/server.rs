use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use super::client::Client;
use super::database::TestDatabase;

/// The same master key for the CLI and the server of one test.
pub const MASTER_KEY: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

#[derive(Debug, Clone)]
pub struct Merchant {
    pub id: String,
    pub api_key: String,
    pub api_secret: String,
}

/// The real `idv` binary serving on a free port; killed when dropped.
pub struct Server {
    pub base_url: String,
    pub db: TestDatabase,
    env: Vec<(String, String)>,
    /// A program the binary is started through (`prlimit ... --`), if any.
    wrapper: Vec<String>,
    child: Child,
}

impl Server {
    /// Starts with extra `IDV_*` settings.
    pub fn start_with(db: TestDatabase, env: &[(&str, &str)]) -> Self {
        Self::start_through(db, env, &[])
    }

    /// Starts with extra settings, through `wrapper` (a program that runs the command
    /// after it in its own process, as `prlimit ... --` does).
    pub fn start_through(db: TestDatabase, env: &[(&str, &str)], wrapper: &[&str]) -> Self {
        let env = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut server = Self {
            base_url: String::new(),
            db,
            env,
            wrapper: wrapper.iter().map(ToString::to_string).collect(),
            child: dummy_child(),
        };
        server.restart();
        server
    }

    /// Sets `IDV_*` (and other) settings for the next start, over those given before.
    pub fn set_env(&mut self, env: &[(&str, &str)]) {
        for (key, value) in env {
            self.env.retain(|(k, _)| k != key);
            self.env.push((key.to_string(), value.to_string()));
        }
    }

    /// Drops a setting given before, for the next start.
    pub fn unset_env(&mut self, key: &str) {
        self.env.retain(|(k, _)| k != key);
    }

    /// Every stored file's name (its file id), under the data directory's `files/`.
    pub fn stored_files(&self) -> Vec<String> {
        let files = self.db.data_dir.path().join("files");
        let mut names = Vec::new();
        for shard in std::fs::read_dir(files).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(shard.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                names.push(file.file_name().to_string_lossy().into_owned());
            }
        }
        names
    }

    /// A command of the binary with this test's storage settings.
    pub fn idv(&self) -> Command {
        let mut cmd = idv(&self.db);
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// Starts the binary again on the same data (after `kill`), on a new port.
    pub fn restart(&mut self) {
        let log =
            std::fs::File::create(self.db.data_dir.path().join("server.log")).expect("log file");
        let mut serve = self.idv();
        serve.args(["serve", "--bind", "127.0.0.1:0"]);
        let mut child = wrapped(serve, &self.wrapper)
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("idv starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("idv prints its address");
        let address = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| {
                let log = std::fs::read_to_string(self.db.data_dir.path().join("server.log"))
                    .unwrap_or_default();
                panic!("idv did not start: {line:?}\n{log}")
            });
        self.base_url = address.to_owned();
        self.child = child;
    }

    /// SIGTERM, as a process manager stops a service; waits for the exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "SIGTERM sent");
        self.child.wait().expect("idv exits")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server process's peak resident memory so far (`VmHWM`), in bytes.
    pub fn peak_memory_bytes(&self) -> u64 {
        self.memory_bytes("VmHWM")
    }

    /// The server process's resident anonymous memory now (`RssAnon`: its heaps, not
    /// its mapped files), in bytes.
    pub fn anonymous_memory_bytes(&self) -> u64 {
        self.memory_bytes("RssAnon")
    }

    /// A memory figure of the server's `/proc` status, in bytes.
    fn memory_bytes(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let line = status
            .lines()
            .find(|l| {
                l.strip_prefix(field)
                    .is_some_and(|rest| rest.starts_with(':'))
            })
            .unwrap_or_else(|| panic!("{field} listed"));
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a number of kB");
        kib * 1024
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `idv merchant create --json`.
    pub fn create_merchant(&self, name: &str) -> Merchant {
        let out = self.run(&["merchant", "create", "--name", name, "--json"]);
        parse_credentials(&out)
    }

    /// `idv merchant key create --merchant ID --json [--compat-signature]`.
    pub fn create_key(&self, merchant: &Merchant, compat: bool) -> Merchant {
        let flags: &[&str] = if compat { &["--compat-signature"] } else { &[] };
        self.create_key_with(merchant, flags).0
    }

    /// `idv merchant key create --merchant ID --json` with more `flags`: the credentials,
    /// and the whole JSON object printed.
    pub fn create_key_with(
        &self,
        merchant: &Merchant,
        flags: &[&str],
    ) -> (Merchant, serde_json::Value) {
        let mut args = vec![
            "merchant",
            "key",
            "create",
            "--merchant",
            &merchant.id,
            "--json",
        ];
        args.extend(flags);
        let out = self.run(&args);
        let json = serde_json::from_str(out.trim()).expect("one JSON object");
        (parse_credentials(&out), json)
    }

    /// Runs a CLI command of the binary and returns its stdout; panics if it fails.
    pub fn run(&self, args: &[&str]) -> String {
        let out = self.idv().args(args).output().expect("idv runs");
        assert!(
            out.status.success(),
            "idv {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    pub fn client(&self, merchant: &Merchant) -> Client {
        Client::new(&self.base_url, merchant)
    }
}

/// `command` run through `wrapper` (its program, then `command`'s), with `command`'s
/// environment; `command` itself when there is no wrapper.
fn wrapped(command: Command, wrapper: &[String]) -> Command {
    let Some((program, args)) = wrapper.split_first() else {
        return command;
    };
    let mut through = Command::new(program);
    through
        .args(args)
        .arg(command.get_program())
        .args(command.get_args())
        .env_clear()
        .envs(command.get_envs().filter_map(|(k, v)| Some((k, v?))));
    through
}

/// A command of the binary on `db`, with the tests' master key, before any server runs
/// on it (a restore).
pub fn idv(db: &TestDatabase) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_idv"));
    cmd.env_clear()
        .env("IDV_DATA_DIR", db.data_dir.path())
        .env("IDV_MASTER_KEY", MASTER_KEY)
        .env("IDV_LOG", "warn");
    if let Some(url) = &db.url {
        cmd.env("IDV_DATABASE_URL", url);
    }
    // A build that matches faces does so with the models the tests were given.
    if let Some(models) = std::env::var_os("IDV_FACE_MODELS")
        && cfg!(feature = "face-match")
    {
        cmd.env("IDV_FACE_MODELS", models);
    }
    cmd
}

fn parse_credentials(out: &str) -> Merchant {
    let json: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let field = |k: &str| {
        json[k]
            .as_str()
            .unwrap_or_else(|| panic!("{k} in {out}"))
            .to_owned()
    };
    Merchant {
        id: field("merchant_id"),
        api_key: field("api_key"),
        api_secret: field("api_secret"),
    }
}

/// A finished process standing in until the real one is spawned.
fn dummy_child() -> Child {
    let mut child = Command::new("true").spawn().expect("true runs");
    let _ = child.wait();
    child
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
