"""The table of shapes/README.md: per kernel of kernels.txt, its label, what `warpscope check`
found (the suite's line, calibration/races/run.sh), what `warpscope run --check` found on the
same binary the GPU ran (emulator/NAME.txt), the H200's plain runs (distinct results over 200
launches; whether the first run's buffers equal the emulator's), racecheck and synccheck.
    python3 summarize.py RESULTS_DIR SUITE_OUTPUT [EMULATOR_DIR]
LIST=kernels-batch3.txt takes another list; where the results hold memcheck and initcheck logs,
their columns follow."""
import os
import re
import sys

R, SUITE = sys.argv[1], sys.argv[2]
E = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), 'emulator')
LIST = os.environ.get('LIST', 'kernels.txt')
names = [l.strip() for l in open(os.path.join(os.path.dirname(__file__), LIST))
         if l.strip() and not l.startswith('#')]
suite = {}
for line in open(SUITE):
    f = line.split()
    if len(f) >= 3:
        suite[f[0]] = (f[1], f[2])


def read(path):
    return open(path, errors='replace').read() if os.path.exists(path) else ''


def racecheck(t):
    m = re.search(r'RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, (\d+) warnings?\)', t)
    if not m:
        return 'no summary'
    e, w = int(m.group(1)), int(m.group(2))
    return 'clean' if e + w == 0 else f'{e} errors, {w} warnings'


def synccheck(t):
    m = re.search(r'ERROR SUMMARY: (\d+) error', t)
    return 'no summary' if not m else ('clean' if m.group(1) == '0' else m.group(1))


def run_check(t):
    # the findings table of `warpscope run --check`: its kind column
    kinds = set(re.findall(r'\|\s*(?:error|warning)\s*\|\s*(race|global_race|divergent_barrier|same_value_write)\s*\|', t))
    return ','.join(sorted(kinds)) or 'none'


more = any(os.path.exists(f'{R}/{n}.memcheck.txt') for n in names)
extra = ' memcheck | initcheck |' if more else ''
print('| kernel | label | `check` | `run --check` | H200: distinct results (200 runs) | first run = emulator | racecheck | synccheck |' + extra)
print('|---|---|---|---|---|---|---|---|' + ('---|---|' if more else ''))
for n in names:
    want, got = suite.get(n, ('?', '?'))
    plain = read(f'{R}/{n}.plain.txt')
    d = re.search(r'(\d+) runs, (\d+) distinct', plain)
    err = re.search(r': run \d+: (.*)', plain)
    runs = d.group(2) if d else (err.group(1) if err else 'no output')
    emu = read(f'{E}/{n}.txt')
    bufs = re.findall(r'buf\d+:.*', plain)
    same = 'yes' if bufs and bufs == re.findall(r'buf\d+:.*', emu) else ('-' if not bufs or not emu else 'no')
    print(f'| {n} | {want} | {got} | {run_check(emu)} | {runs} | {same} | '
          f'{racecheck(read(f"{R}/{n}.racecheck.txt"))} | {synccheck(read(f"{R}/{n}.synccheck.txt"))} |'
          + (f' {synccheck(read(f"{R}/{n}.memcheck.txt"))} | {synccheck(read(f"{R}/{n}.initcheck.txt"))} |' if more else ''))
