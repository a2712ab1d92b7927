#!/usr/bin/env python3
"""Builds cuda_samples_h100.tsv: per launch of NVIDIA's cuda-samples that ncu profiled on the H100,
warpscope's counters (from `warpscope run --export`) beside the H100's, with warpscope's own
exactness labels and the counters the H100 did not repeat between runs of the same binary. The
samples' sources are not in this repository; this keeps the figures.

  python3 table.py OUT.tsv --batch NAME JSON_DIR NCU_DIR [NCU_DIR ...] [--batch ...]

JSON_DIR/TAG.json is warpscope's export of the run TAG; NCU_DIR/TAG.ncu.csv an ncu run of it. The
first NCU_DIR is the reference (its figures are the table's `h100` columns and must hold every
metric of M); the others are repeats of the same binaries with the same arguments, used only to
name what the H100 itself does not repeat; the launches compared are those every run profiled. Prints the summary (the acceptance figures) on stdout."""
import argparse, csv, io, json, os, sys

# (metric, group): `shared` and `branch` are compared for equality; `unit` (the L1 unit's shared
# wavefronts, warpscope's figure a floor) for warpscope <= H100; `global` is shown, not summarised.
M = [('smsp__sass_inst_executed_op_shared_ld.sum', 'shared'),
     ('sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'shared'),
     ('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'unit'),
     ('smsp__sass_inst_executed_op_shared_st.sum', 'shared'),
     ('sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'shared'),
     ('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'unit'),
     ('smsp__sass_branch_targets.sum', 'branch'),
     ('smsp__sass_branch_targets_threads_divergent.sum', 'branch'),
     ('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'global'),
     ('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'global'),
     ('l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'global'),
     ('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'global')]
FLAGS = ['warpscope__shared_counters_exact', 'warpscope__branch_counters_exact',
         'warpscope__global_counters_exact', 'warpscope__spin_loop',
         'warpscope__l1tex_shared_wavefronts_floor']


def load_ncu(path):
    out = {}
    lines = [l for l in open(path, errors='replace') if l.startswith('"')]
    for r in csv.DictReader(io.StringIO(''.join(lines))):
        try:
            v = float(r['Metric Value'].replace(',', ''))
        except ValueError:
            continue
        out.setdefault(int(r['ID']), {'name': r['Kernel Name']})[r['Metric Name']] = v
    return out


def num(v):
    if v != v:
        return 'nan'
    return str(int(v)) if v == int(v) else repr(v)


def short(m):
    return m.split('__')[1].split('.')[0]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--batch', nargs='+', action='append', required=True,
                    metavar='NAME JSON_DIR NCU_DIR', help='NAME JSON_DIR NCU_DIR [REPEAT_NCU_DIR ...]')
    a = ap.parse_args(argv)
    out = open(a.out, 'w')
    cols = ['batch', 'sample', 'launch', 'kernel'] \
        + [f'{short(m)}:{who}' for m, _ in M for who in ('warpscope', 'h100')] \
        + ['h100_not_repeated'] + [f.replace('warpscope__', '') for f in FLAGS]
    out.write('\t'.join(cols) + '\n')
    summary = {}
    for b in a.batch:
        if len(b) < 3:
            sys.exit(f'--batch {" ".join(b)}: needs NAME JSON_DIR NCU_DIR')
        name, json_dir, ref, repeats = b[0], b[1], b[2], b[3:]
        s = summary.setdefault(name, dict(launches=0, shared=0, branch=0, both=0, floor=0,
                                          repeated=0, repeated_both=0, fails=[]))
        for f in sorted(os.listdir(ref)):
            if not f.endswith('.ncu.csv'):
                continue
            tag = f[:-len('.ncu.csv')]
            jp = os.path.join(json_dir, tag + '.json')
            if not os.path.exists(jp):
                continue
            hw = load_ncu(os.path.join(ref, f))
            reps = [load_ncu(os.path.join(d, f)) for d in repeats if os.path.exists(os.path.join(d, f))]
            for i, l in enumerate(json.load(open(jp))['launches']):
                h = hw.get(i)
                if h is None or any(i not in r for r in reps):
                    continue  # compared: the launches every run profiled
                m = l['metrics']
                row = [name, tag, str(i), h['name']]
                for k, _ in M:
                    row += [num(m[k]) if k in m else '', num(h[k]) if k in h else '']
                runs = [h] + [r[i] for r in reps]
                # a counter the H100 did not repeat: differing between runs that measured it
                varies = [short(k) for k, g in M if g != 'global'
                          and len({num(r[k]) for r in runs if k in r}) > 1]
                row.append(','.join(varies) or '-')
                row += [num(m.get(k, 0)) for k in FLAGS]
                out.write('\t'.join(row) + '\n')
                if any(h.get(k) != h.get(k) for k, _ in M):
                    continue  # no H100 figures (a launch ncu could not profile)
                eq = {g: all(m.get(k) == h.get(k) for k, gg in M if gg == g) for g in ('shared', 'branch')}
                floor = all(m.get(k, 0) <= min(r.get(k, 0) for r in runs) for k, g in M if g == 'unit')
                s['launches'] += 1
                s['shared'] += eq['shared']
                s['branch'] += eq['branch']
                s['floor'] += floor
                both = eq['shared'] and eq['branch']
                s['both'] += both
                if not varies and len(runs) > 1:
                    s['repeated'] += 1
                    s['repeated_both'] += both
                if not both:
                    s['fails'].append((tag, i, h['name'][:40], ','.join(g for g in eq if not eq[g]),
                                       ','.join(varies) or '-',
                                       ' '.join(f.replace('warpscope__', '') for f in FLAGS[:4]
                                                if m.get(f, 0) == (0 if 'exact' in f else 1))))
    pct = lambda a, b: f'{100 * a / b:.1f} %' if b else '-'
    tot = {k: sum(s[k] for s in summary.values()) for k in
           ('launches', 'shared', 'branch', 'both', 'floor', 'repeated', 'repeated_both')}
    print('| batch | launches | shared equal | branch equal | both | unit-level floor held '
          '| H100 repeated itself | both, of those |')
    print('|---|---|---|---|---|---|---|---|')
    for n, s in list(summary.items()) + [('all', tot)]:
        print(f"| {n} | {s['launches']} | {s['shared']} | {s['branch']} | {s['both']} "
              f"({pct(s['both'], s['launches'])}) | {s['floor']} | {s['repeated']} "
              f"| {s['repeated_both']} ({pct(s['repeated_both'], s['repeated'])}) |")
    print('\nlaunches not equal (sample, launch, kernel, groups differing, counters the H100 did not '
          'repeat, warpscope labels saying not exact):')
    for s in summary.values():
        for f in s['fails']:
            print('  ' + ' | '.join(map(str, f)))


if __name__ == '__main__':
    main(sys.argv[1:])
