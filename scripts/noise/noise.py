#!/usr/bin/env python3
"""Noise check: lint real MCP servers that are not in the development corpus.

Nobody labelled these servers, so the numbers are not a score: they show what the
linter says about code it was never tuned on, and -- the part to read before landing
an engine change -- what moved since the last run.

    python3 scripts/noise/noise.py            # lint every server, diff against last.json, save
    python3 scripts/noise/noise.py --list     # `owner/name commit` lines: what a new machine must fetch
    python3 scripts/noise/noise.py --only rmcp-irc --no-save

Each server is read from a bare git mirror (MIRROR/owner+name/repo) at the commit
pinned in servers.txt; only the files the linter reads are written out, once.
"""
import argparse, fnmatch, json, os, shutil, signal, subprocess, sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
KEEP = (".rs", "Cargo.toml", "Cargo.lock", ".gitignore")  # all the linter reads
TIMEOUT = 60
INTERNAL = "internal_error"


def load_servers(path):
    rows = [l.split("#", 1)[0].split() for l in path.read_text().splitlines()]
    return [{"name": r[0], "commit": r[1], "sdk": r[2]} for r in rows if r]


def git_dir(mirror, name):
    repo = mirror / name.replace("/", "+") / "repo"
    # fetch leaves a bare repo, but some snapshots are clones with a work tree
    return repo / ".git" if (repo / ".git").is_dir() else repo if repo.is_dir() else None


def materialize(gdir, commit, trees, name):
    """Write the server's tree at `commit` under trees/, once; return its path."""
    dest = trees / f"{name.replace('/', '+')}-{commit[:12]}"
    if (dest / ".noise-complete").exists():
        return dest
    # not `git archive`: snapshots lack blobs of 4 MiB and more, and one missing
    # binary would fail the whole archive; read only the files the linter needs
    ls = subprocess.run(["git", "--git-dir", str(gdir), "ls-tree", "-r", "-z", commit],
                        capture_output=True, check=True).stdout.decode(errors="surrogateescape")
    wanted = []
    for entry in filter(None, ls.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        # regular files only: a fetched snapshot is untrusted, so no links out of the tree
        if kind == "blob" and mode in ("100644", "100755") and path.endswith(KEEP) \
                and ".." not in Path(path).parts and not path.startswith("/"):
            wanted.append((sha, path))
    blobs = subprocess.run(["git", "--git-dir", str(gdir), "cat-file", "--batch"], check=True,
                           input="".join(f"{sha}\n" for sha, _ in wanted).encode(),
                           capture_output=True).stdout
    tmp = dest.with_name(dest.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    pos = 0
    for sha, path in wanted:
        nl = blobs.index(b"\n", pos)
        header, pos = blobs[pos:nl].split(), nl + 1
        if header[1] == b"missing":  # a blob the snapshot lacks: lint the rest
            continue
        size, out = int(header[2]), tmp / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(blobs[pos:pos + size])
        pos += size + 1
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / ".noise-complete").write_text(commit + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def primary(msg):
    """(file, line) of the first primary span, searching children when the top has none."""
    for m in [msg] + msg.get("children", []):
        for s in m.get("spans", []):
            if s.get("is_primary"):
                return s["file_name"], s["line_start"]
    return "", 0


def lint_server(binary, tree):
    res = {"status": "ok", "findings": [], "tools": [], "kinds": {}}
    # cwd = the tree and path ".", so file names are relative to the server's root
    # and two runs on different machines compare equal
    code, out, err = run([str(binary), ".", "--message-format", "json", "--exit-zero"], tree)
    if code != 0:
        res["status"] = f"lint {code}: {err.strip().splitlines()[-1][:80] if err.strip() else ''}"
    for line in out.splitlines():
        try:
            d = json.loads(line)
        except json.JSONDecodeError:  # the linter's output is under test too: say so, go on
            d, res["status"] = {}, res["status"] + "; bad json line"
        if d.get("reason") != "compiler-message":
            continue
        m = d["message"]
        lint = ((m.get("code") or {}).get("code") or "?").removeprefix("mcp_lint::")
        f, ln = primary(m)
        res["findings"].append({"lint": lint, "file": f, "line": ln, "msg": m["message"][:60]})
    code, out, err = run([str(binary), "contract", ".", "--format", "json"], tree)
    try:
        tools = json.loads(out)["tools"] if out.strip() else []
    except (json.JSONDecodeError, KeyError):
        tools = []
        code = code or "bad json"
    if code != 0:
        res["status"] += f"; contract {code}"
    res["tools"] = sorted(f"{t.get('kind')}:{t.get('name')}" for t in tools)
    res["kinds"] = dict(Counter(t.get("kind") for t in tools))
    return res


def summarize(r):
    lints = Counter(f["lint"] for f in r["findings"])
    sites = {(f["file"], f["line"]) for f in r["findings"]}
    n_tools = r["kinds"].get("tool", 0)
    return n_tools, len(r["findings"]), len(sites), lints


def fmt_lints(lints):
    return " ".join(f"{k}={v}" for k, v in sorted(lints.items(), key=lambda kv: (-kv[1], kv[0])))


def print_table(results):
    w = max([len(n) for n in results] + [6])
    print(f"{'server':<{w}}  {'sdk':<16} {'tools':>5} {'finds':>5} {'sites':>5}  per lint")
    tot_t = tot_f = tot_s = linted = 0
    tot_l = Counter()
    for name, r in results.items():
        if r["status"] == "missing":
            print(f"{name:<{w}}  {r['sdk']:<16} {'-':>5} {'-':>5} {'-':>5}  (skipped: {r['note']})")
            continue
        t, f, s, lints = summarize(r)
        tot_t, tot_f, tot_s, linted = tot_t + t, tot_f + f, tot_s + s, linted + 1
        tot_l.update(lints)
        other = {k: v for k, v in r["kinds"].items() if k != "tool"}
        extra = (" [" + " ".join(f"{k}={v}" for k, v in sorted(other.items())) + "]") if other else ""
        bad = f"  !! {r['status']}" if r["status"] != "ok" else ""
        bad += f"  !! {lints[INTERNAL]} internal errors" if lints[INTERNAL] else ""
        print(f"{name:<{w}}  {r['sdk']:<16} {t:>5} {f:>5} {s:>5}  {fmt_lints(lints)}{extra}{bad}")
    print(f"{f'TOTAL ({linted} of {len(results)})':<{w}}  {'':<16} {tot_t:>5} {tot_f:>5} {tot_s:>5}  {fmt_lints(tot_l)}")


def key(f):
    return f"{f['lint']} {f['file']}:{f['line']} {f['msg']}"


def print_diff(prev, results):
    """What moved per server since the previous run: the part to read before landing."""
    print("\n== diff against the last run ==")
    moved = False
    for name, r in results.items():
        p = prev.get(name)
        if r["status"] == "missing" or p is None or p.get("status") == "missing":
            continue
        lines = []
        if p.get("commit") != r["commit"]:
            lines.append(f"  commit {p.get('commit', '?')[:12]} -> {r['commit'][:12]} (not comparable line by line)")
        pt, rt = Counter(p["tools"]), Counter(r["tools"])
        lines += [f"  + {t}" for t in sorted((rt - pt).elements())]
        lines += [f"  - {t}" for t in sorted((pt - rt).elements())]
        pl, rl = summarize(p)[3], summarize(r)[3]
        ch = [f"{k} {pl[k]}->{rl[k]}" for k in sorted(set(pl) | set(rl)) if pl[k] != rl[k]]
        if ch:
            lines.append("  lints: " + ", ".join(ch))
        pf, rf = Counter(map(key, p["findings"])), Counter(map(key, r["findings"]))
        lines += [f"  + {k}" for k in sorted((rf - pf).elements())]
        lines += [f"  - {k}" for k in sorted((pf - rf).elements())]
        if p.get("status") != r["status"]:
            lines.append(f"  status: {p.get('status')} -> {r['status']}")
        if lines:
            moved = True
            print(name + "\n" + "\n".join(lines))
    if not moved:
        print("nothing moved")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `--list | head` is not an error
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", type=Path, default=Path(os.environ.get("MCP_LINT_MIRROR", "/work/.mirror")))
    ap.add_argument("--trees", type=Path, default=REPO / "target/noise/trees")
    ap.add_argument("--bin", type=Path, default=REPO / "target/release/mcp-lint")
    ap.add_argument("--servers", type=Path, default=HERE / "servers.txt")
    ap.add_argument("--only", help="substring or glob of owner/name")
    ap.add_argument("--list", action="store_true", help="print `owner/name commit` lines and exit")
    ap.add_argument("--save", type=Path, default=REPO / "target/noise/last.json")
    ap.add_argument("--no-save", action="store_true")
    a = ap.parse_args()

    servers = load_servers(a.servers)
    if a.only:
        servers = [s for s in servers if a.only in s["name"] or fnmatch.fnmatch(s["name"], a.only)]
    if a.list:
        for s in servers:
            print(s["name"], s["commit"])
            if not git_dir(a.mirror, s["name"]):
                print(f"note: {s['name']} is not in {a.mirror}", file=sys.stderr)
        return 0
    if not a.bin.exists():
        sys.exit(f"no linter at {a.bin}: cargo build --release")

    a.trees.mkdir(parents=True, exist_ok=True)
    results = {}
    for s in servers:
        r = {"sdk": s["sdk"], "commit": s["commit"]}
        g = git_dir(a.mirror, s["name"])
        try:
            if not g:
                raise LookupError(f"no mirror at {a.mirror}")
            tree = materialize(g, s["commit"], a.trees, s["name"])
        except (LookupError, subprocess.CalledProcessError) as e:
            # a new machine may lack some mirrors: note it and go on with the rest
            note = str(e) if isinstance(e, LookupError) else "commit not in mirror"
            print(f"note: skipping {s['name']}: {note}", file=sys.stderr)
            results[s["name"]] = {**r, "status": "missing", "note": note}
            continue
        results[s["name"]] = {**r, **lint_server(a.bin, tree)}

    print_table(results)
    prev = {}
    if a.save.exists():
        prev = json.loads(a.save.read_text()).get("servers", {})
        print_diff(prev, results)
    else:
        print(f"\n(no previous run at {a.save}: nothing to diff)")
    if not a.no_save:
        # an --only run updates its servers and keeps the others, so the next full
        # run still diffs every server against its own last result
        merged = {**prev, **{n: r for n, r in results.items() if r["status"] != "missing"}}
        a.save.parent.mkdir(parents=True, exist_ok=True)
        a.save.write_text(json.dumps({"bin": str(a.bin), "servers": merged}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
