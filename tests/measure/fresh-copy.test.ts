/**
 * `--fresh-copy` (src/measure/fresh-copy.ts): the program a command runs, when it is an ELF
 * executable inside the revision's folder, is replaced with a copy of itself before every measured
 * run, so that where its pages land varies from run to run. Real files, and real runs of
 * `pairbench compare` whose program reports the file it runs from.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCopier, programInside, replaceWithCopy } from '../../src/measure/fresh-copy.ts';
import { pairbench, readResults } from '../support/cli.ts';
import { TOOLS, requireTool } from '../support/require-tool.ts';
import { tempDir } from '../support/repo.ts';

/** A folder with `build/prog`, an ELF executable (a copy of /bin/sh, so that a test can script it). */
function folderWithProgram(): { dir: string; prog: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'build'));
  const prog = join(dir, 'build', 'prog');
  copyFileSync('/bin/sh', prog);
  chmodSync(prog, 0o755);
  return { dir, prog };
}

describe('the program a command runs (programInside)', () => {
  it('is the first word when it names an ELF executable inside the folder, after VAR=value assignments', () => {
    const { dir, prog } = folderWithProgram();
    expect(programInside('./build/prog -test.run "^$" -test.bench .', dir)).toBe(prog);
    expect(programInside('build/prog', dir)).toBe(prog);
    expect(programInside(`  GOGC=off FOO=1 ${prog} --x | tee out.txt`, dir)).toBe(prog);
    expect(programInside('./build/prog;echo done', dir)).toBe(prog);
    // followed through a link inside the folder
    symlinkSync(prog, join(dir, 'link'));
    expect(programInside('./link', dir)).toBe(prog);
  });

  it('is none for a program on PATH, outside the folder, a script, a file that is not executable, or a word the shell would expand', () => {
    const { dir, prog } = folderWithProgram();
    // on PATH, the same file for both sides
    expect(programInside('go test -bench .', dir)).toBeNull();
    expect(programInside('sh ./build/prog', dir)).toBeNull();
    // outside the folder: by an absolute path, by .., or through a link
    expect(programInside('/bin/sh -c true', dir)).toBeNull();
    const other = folderWithProgram();
    expect(programInside(`../${other.dir.split('/').at(-1)}/build/prog`, dir)).toBeNull();
    symlinkSync('/bin/sh', join(dir, 'outside'));
    expect(programInside('./outside', dir)).toBeNull();
    // a script: its interpreter is what runs, and it is the same for both sides
    writeFileSync(join(dir, 'bench.sh'), '#!/bin/sh\necho 1\n');
    chmodSync(join(dir, 'bench.sh'), 0o755);
    expect(programInside('./bench.sh', dir)).toBeNull();
    // an ELF file without an execute bit, a folder, a file that does not exist
    chmodSync(prog, 0o644);
    expect(programInside('./build/prog', dir)).toBeNull();
    expect(programInside('./build', dir)).toBeNull();
    expect(programInside('./build/missing', dir)).toBeNull();
    // quoted or expanded: what the shell would run is not read
    chmodSync(prog, 0o755);
    expect(programInside('"./build/prog"', dir)).toBeNull();
    expect(programInside('$BIN/prog', dir)).toBeNull();
    expect(programInside('./build/prog*', dir)).toBeNull();
  });
});

describe('a copy of itself (replaceWithCopy)', () => {
  it('has the same bytes, mode and times in a new file; another name of the old file keeps the old one', () => {
    const { dir, prog } = folderWithProgram();
    chmodSync(prog, 0o751);
    utimesSync(prog, new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:06Z'));
    const other = join(dir, 'hard-link');
    linkSync(prog, other);
    const before = statSync(prog);
    const bytes = readFileSync(prog);
    replaceWithCopy(prog);
    const after = statSync(prog);
    expect(after.ino).not.toBe(before.ino);
    expect(readFileSync(prog).equals(bytes)).toBe(true);
    expect(after.mode).toBe(before.mode);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(statSync(other).ino).toBe(before.ino);
    expect(statSync(other).nlink).toBe(1);
    // nothing is left beside it: neither the copy's name nor the old file's
    expect(readdirSync(join(dir, 'build'))).toEqual(['prog']);
  });

  it('a file it cannot replace is said once, and the runs go on with it as it is', () => {
    const { dir, prog } = folderWithProgram();
    const log: string[] = [];
    const copy = freshCopier((l) => log.push(l));
    const ino = statSync(prog).ino;
    // a folder that may not be written: no new file can be made in it
    chmodSync(join(dir, 'build'), 0o555);
    try {
      if (process.getuid?.() === 0) {
        // root writes anyway: a file in the way of the copy's name stands in for the failure
        chmodSync(join(dir, 'build'), 0o755);
        mkdirSync(`${prog}.pairbench-copy-${process.pid}`);
        writeFileSync(join(`${prog}.pairbench-copy-${process.pid}`, 'x'), '');
      }
      copy('./build/prog', dir);
      copy('./build/prog', dir);
    } finally {
      chmodSync(join(dir, 'build'), 0o755);
    }
    expect(statSync(prog).ino).toBe(ino);
    // what stood in the way is left as it was
    if (process.getuid?.() === 0) expect(statSync(join(`${prog}.pairbench-copy-${process.pid}`, 'x')).isFile()).toBe(true);
    expect(log.filter((l) => l.startsWith('warning: '))).toHaveLength(1);
    expect(log.find((l) => l.startsWith('warning: '))).toMatch(/build\/prog: could not replace it with a copy of itself \(E[A-Z_]+\); its runs go on with the file as it is/);
  });
});

describe('what a killed run left', () => {
  it("a copy whose run is gone is removed when the program is first copied; a live run's, a folder and other files are not", () => {
    const { dir, prog } = folderWithProgram();
    // the pid of a process that has exited
    const gone = spawnSync('true').pid!;
    const stale = `${prog}.pairbench-copy-${gone}`;
    writeFileSync(stale, 'half a copy');
    // another run, alive (this process's parent): its copy is in the making
    const live = `${prog}.pairbench-copy-${process.ppid}`;
    writeFileSync(live, 'a copy in the making');
    const folder = `${prog}.pairbench-copy-${gone + 1}`;
    mkdirSync(folder);
    const other = `${prog}.pairbench-copy-notapid`;
    writeFileSync(other, '');
    freshCopier(() => {})('./build/prog', dir);
    expect(existsSync(stale)).toBe(false);
    expect(readFileSync(live, 'utf8')).toBe('a copy in the making');
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});

describe('a program a killed run left aside', () => {
  it('is put back when the program is missing (the run died between its two renames), and copied from there on', () => {
    const { dir, prog } = folderWithProgram();
    const bytes = readFileSync(prog);
    const gone = spawnSync('true').pid!;
    renameSync(prog, `${prog}.pairbench-aside-${gone}`);
    writeFileSync(`${prog}.pairbench-copy-${gone}`, bytes);
    const log: string[] = [];
    const copy = freshCopier((l) => log.push(l));
    copy('./build/prog', dir);
    expect(readFileSync(prog).equals(bytes)).toBe(true);
    expect(readdirSync(join(dir, 'build'))).toEqual(['prog']);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^build\/prog: a fresh copy before every run/);
    const ino = statSync(prog).ino;
    copy('./build/prog', dir);
    expect(statSync(prog).ino).not.toBe(ino);
  });

  it("is removed when the program is there; a live run's is left alone", () => {
    const { dir, prog } = folderWithProgram();
    const gone = spawnSync('true').pid!;
    writeFileSync(`${prog}.pairbench-aside-${gone}`, 'the old file');
    const live = `${prog}.pairbench-aside-${process.ppid}`;
    writeFileSync(live, 'set aside by a run still going');
    freshCopier(() => {})('./build/prog', dir);
    expect(existsSync(`${prog}.pairbench-aside-${gone}`)).toBe(false);
    expect(readFileSync(live, 'utf8')).toBe('set aside by a run still going');
    expect(readFileSync(prog).subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))).toBe(true);
  });
});

describe('--fresh-copy, end to end', () => {
  /** The inodes of the files the runs ran from, as each run wrote them, and the results file. */
  function compare(flag: string[]): { inodes: { base: Set<string>; head: Set<string> }; settings: Record<string, unknown> | undefined; stdout: string } {
    const base = folderWithProgram();
    const head = folderWithProgram();
    const out = join(base.dir, 'results.json');
    // each run appends the inode of the file its process runs (/proc/$$/exe: the shell is the program itself)
    const run = `./build/prog -c 'stat -L -c %i /proc/$$/exe >> runs.txt'`;
    const res = pairbench(['compare', '--base-dir', base.dir, '--head-dir', head.dir, '--run', run, '--min-pairs', '6', '--max-pairs', '6', '--fail-on', 'none', '--out', out, ...flag]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const read = (dir: string) => new Set(readFileSync(join(dir, 'runs.txt'), 'utf8').trim().split('\n'));
    return { inodes: { base: read(base.dir), head: read(head.dir) }, settings: readResults(out).settings, stdout: res.stdout + res.stderr };
  }

  it('auto (the default): the runs of each side run from new files, and the log says which file it copies', () => {
    const { inodes, settings, stdout } = compare([]);
    // a copy and the file it replaces exist together, so two runs in a row never share an inode
    expect(inodes.base.size).toBeGreaterThan(1);
    expect(inodes.head.size).toBeGreaterThan(1);
    expect(settings?.['freshCopy']).toBe('auto');
    expect(stdout).toMatch(/build\/prog: a fresh copy before every run in .+ \(--fresh-copy off runs the file as it is\)/);
  });

  it('off: every run of a side runs the same file, and the results file says so', () => {
    const { inodes, settings, stdout } = compare(['--fresh-copy', 'off']);
    expect(inodes.base.size).toBe(1);
    expect(inodes.head.size).toBe(1);
    expect(settings?.['freshCopy']).toBe('off');
    expect(stdout).not.toContain('a fresh copy');
  });
});

describe('only its own files, inside the revision', () => {
  it('never removes or renames into place what is named like its copies beside a program outside the folder, by path or through a link', () => {
    const { dir } = folderWithProgram();
    const outside = folderWithProgram();
    const gone = spawnSync('true').pid!;
    // beside a program outside: a file named like a copy, and one like an old file set aside with the program missing
    const copyName = `${outside.prog}.pairbench-copy-${gone}`;
    writeFileSync(copyName, 'not pairbench\'s');
    const asideProg = join(outside.dir, 'build', 'gone');
    const asideName = `${asideProg}.pairbench-aside-${gone}`;
    writeFileSync(asideName, '#!/bin/sh\necho planted\n');
    symlinkSync(asideProg, join(dir, 'link'));
    const copy = freshCopier(() => {});
    copy(`${outside.prog} -c true`, dir);
    copy('./link', dir);
    copy(`${asideProg}`, dir);
    expect(readFileSync(copyName, 'utf8')).toBe("not pairbench's");
    expect(readFileSync(asideName, 'utf8')).toBe('#!/bin/sh\necho planted\n');
    expect(existsSync(asideProg)).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)("leaves another user's files named like its copies alone, inside the folder too (run as root: the files are given to nobody)", () => {
    const { dir, prog } = folderWithProgram();
    const gone = spawnSync('true').pid!;
    const copyName = `${prog}.pairbench-copy-${gone}`;
    writeFileSync(copyName, 'another user\'s');
    chownSync(copyName, 65534, 65534);
    freshCopier(() => {})('./build/prog', dir);
    expect(readFileSync(copyName, 'utf8')).toBe("another user's");
  });

  it('resolves the program once: a prepare step that swaps its folder for a link outside stops the copies, with one warning', () => {
    const { dir, prog } = folderWithProgram();
    const outside = folderWithProgram();
    const log: string[] = [];
    const copy = freshCopier((l) => log.push(l));
    copy('./build/prog', dir);
    expect(existsSync(prog)).toBe(true);
    renameSync(join(dir, 'build'), join(dir, 'build-old'));
    symlinkSync(join(outside.dir, 'build'), join(dir, 'build'));
    const ino = statSync(outside.prog).ino;
    copy('./build/prog', dir);
    copy('./build/prog', dir);
    expect(statSync(outside.prog).ino).toBe(ino);
    expect(readdirSync(join(outside.dir, 'build'))).toEqual(['prog']);
    const warnings = log.filter((l) => l.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/build\/prog: is no longer the file it was when the comparison started \(a link on its path now leads to .*\); its runs go on without fresh copies/);
  });

  it('does not write a sparse program out in full before every run: it is left as it is, with one warning', () => {
    const { dir, prog } = folderWithProgram();
    truncateSync(prog, 64 * 1024 * 1024);
    const log: string[] = [];
    const copy = freshCopier((l) => log.push(l));
    const ino = statSync(prog).ino;
    copy('./build/prog', dir);
    copy('./build/prog', dir);
    expect(statSync(prog).ino).toBe(ino);
    const warnings = log.filter((l) => l.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/build\/prog: a sparse file \(64 MiB, of which \d+(\.\d+)? MiB on disk\): a copy would be written out in full before every run; its runs go on with the file as it is/);
  });
});

const cc = requireTool(TOOLS.cc);

describe('a copy that cannot take the name, and a program that cannot be put back', () => {
  // Real renames failing on demand: a shared library preloaded into a real Node process makes
  // rename(2) fail for a copy or an old file taking a name ending in `doomed`.
  const SHIM = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
int rename(const char *from, const char *to) {
  static int (*real)(const char *, const char *);
  if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
  size_t n = strlen(to);
  if (n >= 6 && strcmp(to + n - 6, "doomed") == 0) {
    if (strstr(from, ".pairbench-copy-")) { errno = EIO; return -1; }
    if (strstr(from, ".pairbench-aside-")) { errno = EROFS; return -1; }
  }
  return real(from, to);
}
`;
  cc.it('says both failures and where the program is, never only the second', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'shim.c'), SHIM);
    const built = spawnSync('cc', ['-shared', '-fPIC', '-o', join(dir, 'shim.so'), join(dir, 'shim.c'), '-ldl']);
    expect(built.status, built.stderr.toString()).toBe(0);
    const prog = join(dir, 'doomed');
    copyFileSync('/bin/sh', prog);
    const module = join(import.meta.dirname, '../../src/measure/fresh-copy.ts');
    const script = `import { replaceWithCopy } from ${JSON.stringify(module)}; try { replaceWithCopy(process.argv[1]); console.log('replaced'); } catch (e) { console.log(e.message); }`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script, prog], { env: { ...process.env, LD_PRELOAD: join(dir, 'shim.so') }, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    const aside = readdirSync(dir).find((n) => n.startsWith('doomed.pairbench-aside-'));
    expect(aside).toBeDefined();
    expect(res.stdout.trim()).toBe(`EIO, and it could not be put back (EROFS): it is at ${join(dir, aside!)}`);
    // the copy is removed; the program is whole at the aside name, where the next run puts it back
    expect(readdirSync(dir).filter((n) => n.includes('.pairbench-copy-'))).toEqual([]);
    expect(readFileSync(join(dir, aside!)).equals(readFileSync('/bin/sh'))).toBe(true);
  });
});
