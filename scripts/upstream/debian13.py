"""A Debian 13 (trixie) root to run what needs a newer Python than this
machine's Debian 12 has (pretalx 2026 needs 3.13, pytanis 0.10 3.12), and
virtualenvs inside it. Standard library only; needs root (debootstrap,
chroot, mount namespaces).

- `ensure_root()`: the root, cached at ~/.cache/confapi/debian13-root (or
  $CONFAPI_DEBIAN13_ROOT). Built with `debootstrap --variant=minbase
  --include=python3,python3-venv,python3-pip,ca-certificates trixie`
  from the Debian mirror apt already uses, into a temporary directory
  beside it that is renamed when complete: a half-built root is never
  taken for a root (a stale temporary one is removed and rebuilt).
- `ensure_venv(name, packages)`: a virtualenv at /opt/NAME inside the root,
  with a stamp of its packages written last (a half-built or different
  one is rebuilt).
- `command(argv, binds)`: the host command that runs `argv` inside the
  root: `unshare --mount` (a private mount namespace: every mount below
  vanishes with the last process, nothing is left mounted on the host,
  and removing the root never reaches a host directory), /proc mounted,
  /dev and the given host directories bound at the same paths (read-only
  where asked), the host's resolv.conf and CA bundle copied in, then
  `chroot`. The network is the host's: a server inside on 127.0.0.1:PORT
  is reachable from the host.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT_VARIABLE = "CONFAPI_DEBIAN13_ROOT"
SUITE = "trixie"
INCLUDE = "python3,python3-venv,python3-pip,ca-certificates"
# Written last into a complete root (and checked before use).
COMPLETE = ".confapi-root-complete"
# The host's CA bundle, copied into the root (the registries may be
# reached through a proxy whose CA only the host's bundle has).
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"
ROOT_CA = "/etc/ssl/confapi-host-ca.crt"


def root_dir():
    given = os.environ.get(ROOT_VARIABLE)
    if given:
        return Path(given)
    return Path.home() / ".cache" / "confapi" / "debian13-root"


def debian_mirror():
    """The Debian mirror apt uses (deb822 or one-line sources)."""
    candidates = sorted(Path("/etc/apt/sources.list.d").glob("*.sources"))
    for path in candidates:
        text = path.read_text(errors="replace")
        for stanza in re.split(r"\n\s*\n", text):
            if re.search(r"(?m)^Suites:.*\b(bookworm|trixie)\b(?!-)", stanza):
                match = re.search(r"(?m)^URIs:\s*(\S+)", stanza)
                if match and "security" not in match.group(1):
                    return match.group(1)
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*.list"))]:
        if path.exists():
            for line in path.read_text(errors="replace").splitlines():
                match = re.match(r"\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(bookworm|trixie)\s", line)
                if match and "security" not in match.group(1):
                    return match.group(1)
    return "http://deb.debian.org/debian"


def mounted_below(path):
    """Mount points at or below `path` in this mount namespace."""
    path = os.path.realpath(path)
    found = []
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            point = line.split()[1].replace("\\040", " ")
            if point == path or point.startswith(path + "/"):
                found.append(point)
    return found


def remove(path):
    """rm -rf, refusing when anything is mounted below `path`."""
    if mounted_below(path):
        raise RuntimeError(f"{path} has mounts below it ({mounted_below(path)[:3]}); not removing it")
    shutil.rmtree(path, ignore_errors=True)


def ensure_root(log=print):
    root = root_dir()
    if (root / COMPLETE).exists():
        return root
    if root.exists():  # not made by ensure_root, or damaged: rebuilt
        log(f"== {root} is incomplete: rebuilding it")
        remove(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    for stale in root.parent.glob(root.name + ".tmp.*"):
        remove(stale)
    if not shutil.which("debootstrap"):
        raise RuntimeError("debootstrap is missing: apt-get install -y debootstrap")
    building = Path(tempfile.mkdtemp(prefix=root.name + ".tmp.", dir=root.parent))
    mirror = debian_mirror()
    log(f"== building the Debian 13 root in {root} (debootstrap from {mirror})")
    started = time.monotonic()
    logfile = root.parent / (root.name + ".debootstrap.log")
    with open(logfile, "wb") as out:
        # In a mount namespace of its own: what debootstrap mounts (proc,
        # sys) goes with it even when it fails half-way.
        result = subprocess.run(
            ["nice", "-n", "10", "unshare", "--mount", "--propagation", "private",
             "debootstrap", "--variant=minbase", f"--include={INCLUDE}", SUITE, str(building), mirror],
            stdout=out, stderr=out)
    if result.returncode != 0:
        tail = logfile.read_text(errors="replace")[-3000:]
        remove(building)
        raise RuntimeError(f"debootstrap failed (exit {result.returncode}):\n{tail}")
    (building / "opt").mkdir(exist_ok=True)
    (building / COMPLETE).write_text(f"debootstrap {SUITE} {INCLUDE} from {mirror}\n")
    os.chmod(building, 0o755)
    building.rename(root)
    log(f"== Debian 13 root built in {time.monotonic() - started:.0f}s")
    return root


def refresh(root):
    """The host's resolv.conf, CA bundle and pip settings, copied in."""
    shutil.copyfile("/etc/resolv.conf", root / "etc" / "resolv.conf")
    if os.path.exists(HOST_CA):
        shutil.copyfile(HOST_CA, root / ROOT_CA.lstrip("/"))
    pip_conf = "[global]\ncert = " + ROOT_CA + "\n"
    index = os.environ.get("PIP_INDEX_URL")
    if index:
        pip_conf += f"index-url = {index}\n"
    extra = os.environ.get("PIP_EXTRA_INDEX_URL")
    if extra:
        pip_conf += f"extra-index-url = {extra}\n"
    (root / "etc" / "pip.conf").write_text(pip_conf)


def environment(extra=None):
    """A clean environment for commands inside the root."""
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "SSL_CERT_FILE": ROOT_CA,
        "REQUESTS_CA_BUNDLE": ROOT_CA,
        "PIP_CERT": ROOT_CA,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_DEFAULT_TIMEOUT": os.environ.get("PIP_DEFAULT_TIMEOUT", "180"),
    }
    for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
                 "http_proxy", "https_proxy", "no_proxy"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    env.update(extra or {})
    return env


# Mounts /proc, binds /dev and each directory (at the same path; `:ro`
# read-only), then chroots. "$@" is the command.
_SCRIPT = r"""
set -e
R=$CONFAPI_CHROOT
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
for spec in $CONFAPI_BINDS; do
  dir=${spec%:ro}
  mkdir -p "$R$dir"
  mount --bind "$dir" "$R$dir"
  if [ "$spec" != "$dir" ]; then mount -o remount,bind,ro "$R$dir"; fi
done
unset CONFAPI_CHROOT CONFAPI_BINDS
exec chroot "$R" "$@"
"""


def command(root, argv, binds=(), read_only=()):
    """(argv, env-additions) of a host command that runs `argv` in `root`.
    `binds`, `read_only`: absolute host directories bound at the same path.
    Paths with spaces are not supported."""
    specs = [os.path.abspath(b) for b in binds] + [os.path.abspath(b) + ":ro" for b in read_only]
    for spec in specs:
        if " " in spec:
            raise ValueError(f"no spaces in bound paths: {spec!r}")
    return (["unshare", "--mount", "--propagation", "private", "sh", "-c", _SCRIPT, "sh", *argv],
            {"CONFAPI_CHROOT": str(root), "CONFAPI_BINDS": " ".join(specs)})


def run(root, argv, binds=(), read_only=(), env=None, **kwargs):
    """subprocess.run of `argv` inside the root."""
    refresh(root)
    cmd, extra = command(root, argv, binds, read_only)
    return subprocess.run(cmd, env=environment({**(env or {}), **extra}), **kwargs)


def popen(root, argv, binds=(), read_only=(), env=None, **kwargs):
    """subprocess.Popen of `argv` inside the root (unshare, sh and chroot
    exec into it: the pid is the command's)."""
    refresh(root)
    cmd, extra = command(root, argv, binds, read_only)
    return subprocess.Popen(cmd, env=environment({**(env or {}), **extra}), **kwargs)


def ensure_venv(name, packages, log=print, prepare=None, prepared=""):
    """The virtualenv /opt/NAME inside the root (built when missing or
    different; the stamp of its packages is written last). `prepare(root,
    python)` runs once after pip, before the stamp; `prepared` names what
    it does in the stamp (a change rebuilds). Returns (root, the venv's
    python as a path inside the root)."""
    root = ensure_root(log)
    venv = f"/opt/{name}"
    host_venv = root / venv.lstrip("/")
    stamp = host_venv / "confapi-packages.txt"
    wanted = "\n".join(packages) + "\n" + (f"# then: {prepared}\n" if prepared else "")
    python = f"{venv}/bin/python"
    if (host_venv / "bin" / "python").exists() and stamp.exists() and stamp.read_text() == wanted:
        return root, python
    log(f"== building the virtualenv {venv} in {root}")
    started = time.monotonic()
    shutil.rmtree(host_venv, ignore_errors=True)
    logfile = root / "opt" / f"{name}.pip.log"
    with open(logfile, "wb") as out:
        for argv in (["python3", "-m", "venv", venv],
                     ["nice", "-n", "10", python, "-m", "pip", "install", "-q", *packages]):
            result = run(root, argv, stdout=out, stderr=out)
            if result.returncode != 0:
                tail = logfile.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"{' '.join(argv[:4])} failed in {root} (exit {result.returncode}):\n{tail}")
    if prepare:
        prepare(root, python)
    stamp.write_text(wanted)  # last: a half-built venv has no stamp
    log(f"== virtualenv {venv} built in {time.monotonic() - started:.0f}s")
    return root, python
