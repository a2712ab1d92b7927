# Where the threads of a command wait: runs the command and samples every task of it and of its
# descendants every ~2 ms through /proc (the task's state, its kernel wait channel, the system call
# it is in with the first two arguments, and the kernel stack where readable), then prints how
# often each (state, wait channel, call) was seen, most often first, with the number of distinct
# tasks seen there. A task waiting in a system call also has its user stack read (from the stack
# pointer the call left, /proc/PID/mem): the return addresses into the library named by --lib
# (file offsets, to be looked up with addr2line in the same build with symbols), the first four
# a signature, counted. Needs no tool beyond python3 (a host without perf or strace).
#
#   python3 offcpu.py OUT.txt [--every MS] [--lib libwarpscope_cudart.so] -- COMMAND ARGS...
import collections, os, subprocess, sys, time

out = sys.argv[1]
rest = sys.argv[2:]
every = 0.002
if rest[:1] == ["--every"]:
    every = float(rest[1]) / 1000
    rest = rest[2:]
lib = "libwarpscope_cudart.so"
if rest[:1] == ["--lib"]:
    lib = rest[1]
    rest = rest[2:]
if rest[:1] == ["--"]:
    rest = rest[1:]

# x86-64 system call numbers that matter here
NAMES = {0: "read", 1: "write", 7: "poll", 9: "mmap", 10: "mprotect", 11: "munmap", 12: "brk", 24: "sched_yield",
         25: "mremap", 28: "madvise", 35: "nanosleep", 61: "wait4", 202: "futex", 230: "clock_nanosleep",
         228: "clock_gettime", 247: "waitid", 334: "rseq"}


def read(p):
    try:
        with open(p) as f:
            return f.read()
    except Exception:
        return None


def tree(root):
    pids, todo = [], [root]
    while todo:
        p = todo.pop()
        pids.append(p)
        for t in os.listdir(f"/proc/{p}/task") if os.path.isdir(f"/proc/{p}/task") else []:
            c = read(f"/proc/{p}/task/{t}/children")
            if c:
                todo.extend(int(x) for x in c.split())
    return pids


def text_maps(p):
    # the library's executable mappings: (start, end, file offset)
    m = []
    for l in (read(f"/proc/{p}/maps") or "").splitlines():
        f = l.split()
        if len(f) >= 6 and f[1].startswith("r-x") and f[5].endswith(lib):
            a, b = (int(x, 16) for x in f[0].split("-"))
            m.append((a, b, int(f[2], 16)))
    return m


def user_stack(p, sp, maps):
    try:
        with open(f"/proc/{p}/mem", "rb") as f:
            f.seek(sp)
            data = f.read(4096)
    except Exception:
        return None
    out = []
    for i in range(0, len(data) - 7, 8):
        w = int.from_bytes(data[i:i + 8], "little")
        for a, b, off in maps:
            if a <= w < b:
                out.append(hex(w - a + off))
                break
        if len(out) == 4:
            break
    return " ".join(out)


maps_of = {}
ustacks = collections.Counter()
proc = subprocess.Popen(rest)
seen = collections.Counter()
tids = collections.defaultdict(set)
stacks = collections.Counter()
samples = 0
t_end = None
while proc.poll() is None:
    samples += 1
    try:
        pids = tree(proc.pid)
    except Exception:
        pids = [proc.pid]
    for p in pids:
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except Exception:
            continue
        for t in tasks:
            stat = read(f"/proc/{p}/task/{t}/stat")
            if not stat:
                continue
            state = stat[stat.rfind(")") + 2]
            comm = stat[stat.find("(") + 1:stat.rfind(")")]
            wchan = read(f"/proc/{p}/task/{t}/wchan") or "?"
            sc = (read(f"/proc/{p}/task/{t}/syscall") or "?").split()
            if sc and sc[0].lstrip("-").isdigit():
                n = int(sc[0])
                call = NAMES.get(n, str(n)) + ("(" + ",".join(sc[1:3]) + ")" if n >= 0 else "")
            else:
                call = sc[0] if sc else "?"
            key = (state, wchan, call, comm[:12])
            seen[key] += 1
            tids[key].add(t)
            if state in "SD" and len(sc) >= 9 and sc[0].isdigit():
                if p not in maps_of or not maps_of[p]:
                    maps_of[p] = text_maps(p)
                if maps_of[p]:
                    u = user_stack(p, int(sc[7], 16), maps_of[p])
                    if u:
                        ustacks[(call.split("(")[0], u)] += 1
            if state in "SD":
                st = read(f"/proc/{p}/task/{t}/stack")
                if st:
                    stacks[" < ".join(l.split()[1].split("+")[0] for l in st.splitlines()[:8] if len(l.split()) > 1)] += 1
    time.sleep(every)
rc = proc.wait()
with open(out, "w") as f:
    f.write(f"command: {' '.join(rest)}  exit {rc}  samples {samples}\n")
    f.write("count  tasks  state  wchan  call(args)  comm\n")
    for k, n in seen.most_common(60):
        f.write(f"{n:6} {len(tids[k]):5}  {k[0]}  {k[1]}  {k[2]}  {k[3]}\n")
    if stacks:
        f.write("kernel stacks of waiting tasks:\n")
        for s, n in stacks.most_common(25):
            f.write(f"{n:6}  {s}\n")
    if ustacks:
        f.write(f"user stacks of tasks waiting in a call (offsets in {lib}):\n")
        for (c, u), n in ustacks.most_common(25):
            f.write(f"{n:6}  {c}  {u}\n")
sys.exit(rc)
