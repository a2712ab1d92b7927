import os, re, sys, glob
R = sys.argv[1]; E = sys.argv[2] if len(sys.argv) > 2 else 'emu-out'
names = sorted({os.path.basename(f).split('.')[0] for f in glob.glob(R + '/*.plain.txt')})
def summ(path):
    if not os.path.exists(path): return 'n/a'
    t = open(path, errors='replace').read()
    m = re.search(r'RACECHECK SUMMARY: (\d+) hazard', t) or re.search(r'ERROR SUMMARY: (\d+) error', t)
    if m: return 'clean' if m.group(1) == '0' else m.group(1)
    return 'no summary (timeout?)'
print('| kernel | H200 plain (200 runs) | same as emulator | racecheck | synccheck |')
print('|---|---|---|---|---|')
for n in names:
    t = open(f'{R}/{n}.plain.txt', errors='replace').read()
    d = re.search(r'(\d+) runs, (\d+) distinct', t)
    err = re.search(r': run \d+: (.*)', t)
    plain = f'{d.group(2)} distinct' if d else (err.group(1) if err else 'no output (hang, killed at 20 s)')
    bufs = re.findall(r'buf[01]:.*', t)
    e = open(f'{E}/{n}.txt', errors='replace').read() if os.path.exists(f'{E}/{n}.txt') else ''
    ebufs = re.findall(r'buf[01]:.*', e)
    same = 'yes' if bufs and bufs == ebufs else ('-' if not bufs else 'NO')
    print(f'| {n} | {plain} | {same} | {summ(f"{R}/{n}.racecheck.txt")} | {summ(f"{R}/{n}.synccheck.txt")} |')
