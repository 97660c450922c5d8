#!/usr/bin/env python3
"""Runs a command under the seccomp rules a systemd unit file asks for, without systemd.

    python3 Tests/Deploy/unit_seccomp.py UNIT_FILE [--errno] -- COMMAND [ARG...]

scripts/check-deploy.sh uses it to run attestation-server under docs/deploy/attestation-server.service's
system-call sandbox on a machine (or CI container) where systemd is not running, so that a
setting that would kill the Swift runtime or a C library (SIGSYS) fails the check instead of a
production start. It reads from the unit file and reproduces, as systemd 252 builds them:

- SystemCallFilter= (allow list, then ~ removals; @groups expanded by `systemd-analyze
  syscall-filter`), SystemCallArchitectures=native (libseccomp's default: other ABIs are killed).
  A call outside the list kills the process, even when the unit sets SystemCallErrorNumber=
  (where systemd would return that errno): the check must see every call the server makes that
  production would refuse. --errno returns SystemCallErrorNumber= instead, as systemd does.
- MemoryDenyWriteExecute=yes: mmap with PROT_WRITE|PROT_EXEC, mprotect/pkey_mprotect adding
  PROT_EXEC, shmat with SHM_EXEC are refused (EPERM).
- RestrictAddressFamilies=: socket() with another family gets EAFNOSUPPORT.
- RestrictNamespaces=yes: clone/unshare/setns with namespace flags get EPERM, and clone3 ENOSYS
  (its flags cannot be inspected, so glibc must fall back to clone).
- LockPersonality=yes: personality() other than PER_LINUX gets EPERM.
- RestrictRealtime=yes: sched_setscheduler with SCHED_FIFO, SCHED_RR or SCHED_DEADLINE gets EPERM.

Filters are stacked (the kernel applies the strictest answer), one per setting, as systemd does.
libseccomp.so.2 (Debian's libseccomp2, which systemd itself depends on) is loaded with ctypes.
"""
import ctypes
import ctypes.util
import errno
import os
import re
import subprocess
import sys

SCMP_ACT_KILL_PROCESS = 0x80000000
SCMP_ACT_ALLOW = 0x7FFF0000


def scmp_act_errno(number):
    return 0x00050000 | (number & 0xFFFF)


SCMP_CMP_NE = 1
SCMP_CMP_EQ = 4
SCMP_CMP_GE = 5
SCMP_CMP_MASKED_EQ = 7


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def load_libseccomp():
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    lib = ctypes.CDLL(name, use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(ArgCmp)]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_load.restype = ctypes.c_int
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    return lib


class Filter:
    def __init__(self, lib, default_action):
        self.lib = lib
        self.ctx = lib.seccomp_init(default_action)
        if not self.ctx:
            raise SystemExit("unit_seccomp: seccomp_init failed")

    def syscall(self, name):
        number = self.lib.seccomp_syscall_resolve_name(name.encode())
        return None if number < 0 else number

    def add(self, action, name, *comparisons):
        number = self.syscall(name)
        if number is None:
            return False  # not a system call of this architecture (e.g. mmap2 on x86-64)
        array = (ArgCmp * max(len(comparisons), 1))(*[ArgCmp(*c) for c in comparisons])
        result = self.lib.seccomp_rule_add_array(self.ctx, action, number, len(comparisons), array)
        if result < 0:
            raise SystemExit(f"unit_seccomp: rule for {name} refused by libseccomp ({-result})")
        return True

    def load(self):
        result = self.lib.seccomp_load(self.ctx)
        if result < 0:
            raise SystemExit(f"unit_seccomp: seccomp_load failed ({-result}); is seccomp available here?")
        self.lib.seccomp_release(self.ctx)


def unit_settings(path):
    """The [Service] settings, each name with the list of its values in order."""
    settings = {}
    section = None
    with open(path, encoding="utf-8") as unit:
        for raw in unit:
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line
                continue
            if section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def syscall_groups():
    """Every @group of this systemd, with its members (names and nested @groups)."""
    text = subprocess.run(["systemd-analyze", "syscall-filter"], check=True, capture_output=True, text=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = line.strip()
            groups[current] = []
        elif current and line.startswith("    ") and not line.strip().startswith("#") and line.strip():
            groups[current].append(line.strip())
    return groups


def expand(names, groups, seen=None):
    seen = set() if seen is None else seen
    result = set()
    for name in names:
        if name.startswith("@"):
            if name in seen:
                continue
            seen.add(name)
            if name not in groups:
                raise SystemExit(f"unit_seccomp: unknown system call group {name}")
            result |= expand(groups[name], groups, seen)
        else:
            result.add(name.split(":")[0])  # name:errno forms keep only the name
    return result


def allowed_syscalls(values, groups):
    allowed = None
    for value in values:
        if not value:
            allowed = None
            continue
        deny = value.startswith("~")
        names = expand(value.lstrip("~").split(), groups)
        if deny:
            allowed = (allowed if allowed is not None else set()) - names if allowed is not None else None
            if allowed is None:
                raise SystemExit("unit_seccomp: a deny-list-only SystemCallFilter= is not supported here")
        else:
            allowed = names if allowed is None else allowed | names
    return allowed


def truthy(settings, key):
    return settings.get(key, ["no"])[-1].lower() in ("yes", "true", "1", "on")


ADDRESS_FAMILIES = {"AF_UNIX": 1, "AF_LOCAL": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16, "AF_PACKET": 17}
AF_MAX = 46
PROT_WRITE, PROT_EXEC = 0x2, 0x4
SHM_EXEC = 0o100000
NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080


def build(settings, lib, use_errno):
    filters, report = [], []
    groups = syscall_groups()
    errno_name = settings.get("SystemCallErrorNumber", [None])[-1]
    filter_values = settings.get("SystemCallFilter", [])
    if filter_values:
        allowed = allowed_syscalls(filter_values, groups)
        default = SCMP_ACT_KILL_PROCESS
        if use_errno and errno_name:
            default = scmp_act_errno(getattr(errno, errno_name))
        f = Filter(lib, default)
        count = sum(f.add(SCMP_ACT_ALLOW, name) for name in sorted(allowed))
        filters.append(f)
        report.append(f"SystemCallFilter: {count} system calls allowed, others "
                      + (f"fail with {errno_name}" if default != SCMP_ACT_KILL_PROCESS else "kill the process"))
    if truthy(settings, "MemoryDenyWriteExecute"):
        f = Filter(lib, SCMP_ACT_ALLOW)
        refuse = scmp_act_errno(errno.EPERM)
        for name in ("mmap", "mmap2"):
            f.add(refuse, name, (2, SCMP_CMP_MASKED_EQ, PROT_WRITE | PROT_EXEC, PROT_WRITE | PROT_EXEC))
        for name in ("mprotect", "pkey_mprotect"):
            f.add(refuse, name, (2, SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC))
        f.add(refuse, "shmat", (2, SCMP_CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC))
        filters.append(f)
        report.append("MemoryDenyWriteExecute: W+X mappings refused")
    families = settings.get("RestrictAddressFamilies", [])
    if families and families[-1]:
        names = families[-1].split()
        if names[0].startswith("~"):
            raise SystemExit("unit_seccomp: a deny-list RestrictAddressFamilies= is not supported here")
        keep = {ADDRESS_FAMILIES[n] for n in names}
        f = Filter(lib, SCMP_ACT_ALLOW)
        refuse = scmp_act_errno(errno.EAFNOSUPPORT)
        for family in range(AF_MAX):
            if family not in keep:
                f.add(refuse, "socket", (0, SCMP_CMP_EQ, family, 0))
        f.add(refuse, "socket", (0, SCMP_CMP_GE, AF_MAX, 0))
        filters.append(f)
        report.append(f"RestrictAddressFamilies: only {' '.join(names)}")
    if truthy(settings, "RestrictNamespaces"):
        f = Filter(lib, SCMP_ACT_ALLOW)
        refuse = scmp_act_errno(errno.EPERM)
        for bit in range(32):
            flag = 1 << bit
            if NAMESPACE_FLAGS & flag:
                f.add(refuse, "clone", (0, SCMP_CMP_MASKED_EQ, flag, flag))
                f.add(refuse, "unshare", (0, SCMP_CMP_MASKED_EQ, flag, flag))
        f.add(refuse, "setns", (1, SCMP_CMP_EQ, 0, 0))
        f.add(scmp_act_errno(errno.ENOSYS), "clone3")
        filters.append(f)
        report.append("RestrictNamespaces: no namespace flags; clone3 gives ENOSYS")
    if truthy(settings, "LockPersonality"):
        f = Filter(lib, SCMP_ACT_ALLOW)
        # As systemd's seccomp_lock_personality(): personality(PER_LINUX) only.
        f.add(scmp_act_errno(errno.EPERM), "personality", (0, SCMP_CMP_NE, 0, 0))
        filters.append(f)
        report.append("LockPersonality: personality() other than PER_LINUX refused")
    if truthy(settings, "RestrictRealtime"):
        f = Filter(lib, SCMP_ACT_ALLOW)
        for policy in (1, 2, 6):  # SCHED_FIFO, SCHED_RR, SCHED_DEADLINE
            f.add(scmp_act_errno(errno.EPERM), "sched_setscheduler", (1, SCMP_CMP_EQ, policy, 0))
        filters.append(f)
        report.append("RestrictRealtime: real-time scheduling refused")
    return filters, report


def main(argv):
    if "--" not in argv or argv.index("--") < 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    split = argv.index("--")
    options, command = argv[:split], argv[split + 1:]
    use_errno = "--errno" in options
    unit = [o for o in options if o != "--errno"]
    if len(unit) != 1 or not command:
        print("usage: unit_seccomp.py UNIT_FILE [--errno] -- COMMAND [ARG...]", file=sys.stderr)
        return 64
    settings = unit_settings(unit[0])
    lib = load_libseccomp()
    filters, report = build(settings, lib, use_errno)
    for line in report:
        print(f"unit_seccomp: {line}", file=sys.stderr)
    sys.stderr.flush()
    # The allow list last: loading a filter takes seccomp(), which the list itself may refuse.
    for f in filters[1:] + filters[:1] if settings.get("SystemCallFilter") else filters:
        f.load()
    os.execv(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
