/**
 * Which timer measures the runs: the run helper (helper-source.ts) when it can be built and
 * started here, else Node's clock (wall time only), and why.
 *
 * The helper is compiled once per user with the system C compiler and cached (S17) in
 * `$PAIRBENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/pairbench` or `~/.cache/pairbench`, else
 * `<temp>/pairbench-<uid>`, in a folder `helper-<hash of the source>` of mode 0700. A program is
 * run from the cache only if pairbench can trust it: its folder and the file are the user's own, not
 * symbolic links, writable by nobody else, in a cache folder that nobody else can rename things in;
 * and it starts and answers with the hash of this source (`--id`). A cache folder that fails these
 * checks is not used (the helper is built in a private temporary folder instead, with a notice); a
 * cached file that fails them is built again. A helper that cannot be started at all (a cache on a
 * `noexec` file system) leaves the timing to Node, with a notice (S18).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { HELPER_SOURCE } from './helper-source.ts';
import { untrusted, untrustedRoot } from './owned-path.ts';

/**
 * How runs are timed, and why. `scripted`: nothing is timed, every run is answered from a script
 * (the command line's hidden debug mode, schedule/scripted-runner.ts); `measuringTimer` never
 * returns it, and the results file records it as the timer, so such a file is never taken for a
 * measurement.
 */
export type Timer =
  | { kind: 'helper'; path: string; notices: string[] }
  | { kind: 'scripted'; notices: string[] }
  | {
      kind: 'node';
      /** why the helper is not used, to finish "--metric cpu needs the run helper, and ..." */
      why: string;
      /** what the user can do about it */
      remedy: string;
      notices: string[];
    };

/** The compiled helper's identity: the hash of its source, which it prints when asked (`--id`). */
const HELPER_ID = createHash('sha256').update(HELPER_SOURCE).digest('hex').slice(0, 12);
const EXE = 'pairbench-run';
const COMPILER_HINT = 'install a C compiler (Ubuntu: `sudo apt-get install -y gcc`; macOS: `xcode-select --install`) or name one in CC';

let located: Promise<Timer> | null = null;

/**
 * The timer of this process. `PAIRBENCH_NO_HELPER=1` (read on every call) times in Node; otherwise
 * the helper is located, built and checked once per process.
 */
export function measuringTimer(): Promise<Timer> {
  if (process.env.PAIRBENCH_NO_HELPER === '1') {
    return Promise.resolve({ kind: 'node', why: 'PAIRBENCH_NO_HELPER=1 turns the run helper off', remedy: 'unset PAIRBENCH_NO_HELPER', notices: [] });
  }
  located ??= locate();
  return located;
}

/** The cache folder, and whether the user named it. */
function cacheRoot(): { dir: string; named: boolean } {
  const env = process.env;
  if (env.PAIRBENCH_CACHE_DIR) return { dir: resolve(env.PAIRBENCH_CACHE_DIR), named: true };
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return { dir: join(env.XDG_CACHE_HOME, 'pairbench'), named: false };
  if (env.HOME && isAbsolute(env.HOME)) return { dir: join(env.HOME, '.cache', 'pairbench'), named: false };
  return { dir: join(tmpdir(), `pairbench-${process.getuid?.() ?? 'user'}`), named: false };
}

const uid = (): number | undefined => process.getuid?.();

/**
 * Makes the cache folder and the helper's folder in it, or says why they cannot be trusted. The
 * cache folder may be shared (a sticky temp folder) only if nobody else can rename entries in it.
 */
function prepareFolder(root: string, named: boolean): { dir: string } | { unsafe: string } {
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    // stat, not lstat: a cache folder reached through the user's own link (~/.cache elsewhere) is fine
    const rst = statSync(root);
    const unsafe = untrustedRoot(root, rst);
    if (unsafe) return { unsafe };
    const me = uid();
    // A default cache folder is pairbench's own: it is kept private.
    if (!named && rst.uid === me && (rst.mode & 0o077) !== 0) chmodSync(root, 0o700);
    const dir = join(root, `helper-${HELPER_ID}`);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const st = lstatSync(dir);
    if (!st.isDirectory()) return { unsafe: `${dir} is not a folder` };
    const why = untrusted(dir, st);
    if (why) return { unsafe: why };
    // The user's own folder, maybe made with a looser mode: made private.
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return { dir };
  } catch (err) {
    return { unsafe: `${root} cannot be used (${(err as Error).message})` };
  }
}

async function locate(): Promise<Timer> {
  const notices: string[] = [];
  const { dir: root, named } = cacheRoot();
  let folder = prepareFolder(root, named);
  if ('unsafe' in folder) {
    const priv = mkdtempSync(join(tmpdir(), 'pairbench-helper-'));
    process.once('exit', () => rmSync(priv, { recursive: true, force: true }));
    notices.push(`the run helper's cache cannot be used safely (${folder.unsafe}): the helper is built in a private temporary folder for this run instead; set PAIRBENCH_CACHE_DIR to a folder of your own`);
    folder = { dir: priv };
  }
  const exe = join(folder.dir, EXE);
  let st: Stats | null = null;
  try {
    st = lstatSync(exe);
  } catch {
    st = null;
  }
  if (st) {
    // A cached helper is used only if it is the user's own regular file and answers with this source's hash.
    if (st.isFile() && !untrusted(exe, st) && (await identify(exe)).ok) return { kind: 'helper', path: exe, notices };
    rmSync(exe, { force: true });
  }
  const built = await compile(folder.dir, exe);
  if (!built.ok) {
    notices.push(`${built.why}: runs are timed in Node instead (wall time only); ${COMPILER_HINT}`);
    return { kind: 'node', why: built.why, remedy: COMPILER_HINT, notices };
  }
  const started = await identify(exe);
  if (started.ok) return { kind: 'helper', path: exe, notices };
  const noexec = started.code === 'EACCES' || started.code === 'EPERM';
  const why = noexec
    ? `the run helper was built in ${folder.dir}, but programs cannot be run from there (a noexec file system?)`
    : `the run helper built in ${folder.dir} does not start (${started.message})`;
  const remedy = 'set PAIRBENCH_CACHE_DIR to a folder of your own from which programs can be run';
  notices.push(`${why}: runs are timed in Node instead (wall time only); ${remedy}`);
  return { kind: 'node', why, remedy, notices };
}

/** Starts the helper with `--id`: ok when it runs and is the build of this source. */
function identify(exe: string): Promise<{ ok: true } | { ok: false; code?: string; message: string }> {
  return new Promise((resolve) => {
    execFile(exe, ['--id'], { env: {}, timeout: 10_000 }, (err, stdout) => {
      if (err) resolve({ ok: false, ...(typeof err.code === 'string' ? { code: err.code } : {}), message: err.message });
      else if (stdout.trim() !== `${EXE} ${HELPER_ID}`) resolve({ ok: false, message: `it answered ${JSON.stringify(stdout.trim().slice(0, 80))}` });
      else resolve({ ok: true });
    });
  });
}

/** Compiles the helper with the first C compiler found (`$CC`, cc, gcc, clang), written atomically. */
async function compile(dir: string, exe: string): Promise<{ ok: true } | { ok: false; why: string }> {
  const src = join(dir, `run-${process.pid}.c`);
  const tmpExe = `${exe}.${process.pid}.tmp`;
  writeFileSync(src, HELPER_SOURCE, { mode: 0o600 });
  const tried: string[] = [];
  try {
    for (const cc of [process.env.CC, 'cc', 'gcc', 'clang']) {
      if (!cc) continue;
      tried.push(cc);
      const ok = await new Promise<boolean>((resolve) => {
        execFile(cc, ['-O2', `-DPAIRBENCH_HELPER_ID="${HELPER_ID}"`, '-o', tmpExe, src], { timeout: 120_000 }, (err) => resolve(!err));
      });
      if (ok) {
        chmodSync(tmpExe, 0o700);
        renameSync(tmpExe, exe);
        return { ok: true };
      }
    }
  } finally {
    for (const f of [src, tmpExe]) {
      try {
        unlinkSync(f);
      } catch {
        // not there
      }
    }
  }
  return { ok: false, why: `no C compiler was found to build the run helper (tried ${tried.join(', ')})` };
}
