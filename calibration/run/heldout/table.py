#!/usr/bin/env python3
"""Builds cuda_samples_h100.tsv: per launch of NVIDIA's cuda-samples that ncu profiled on the H100,
warpscope's counters (from `warpscope run --export`) beside the H100's, with warpscope's own
exactness labels. The samples' sources are not in this repository; this keeps the figures.
  python3 table.py OUT.tsv BATCH NCU_DIR JSON_DIR [BATCH NCU_DIR JSON_DIR ...]
(NCU_DIR/TAG.ncu.csv and JSON_DIR/TAG.json for every TAG present in both)."""
import csv, io, json, os, sys

M = ['smsp__sass_inst_executed_op_shared_ld.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
     'smsp__sass_inst_executed_op_shared_st.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
     'smsp__sass_branch_targets.sum', 'smsp__sass_branch_targets_threads_divergent.sum',
     'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
     'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum']
FLAGS = ['warpscope__shared_counters_exact', 'warpscope__branch_counters_exact',
         'warpscope__global_counters_exact', 'warpscope__spin_loop']


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


def main(args):
    out = open(args[0], 'w')
    cols = ['batch', 'sample', 'launch', 'kernel'] + [f'{short(m)}:{who}' for m in M for who in ('warpscope', 'h100')] \
        + [f.replace('warpscope__', '') for f in FLAGS]
    out.write('\t'.join(cols) + '\n')
    n = 0
    for batch, ncu_dir, json_dir in zip(args[1::3], args[2::3], args[3::3]):
        for f in sorted(os.listdir(ncu_dir)):
            if not f.endswith('.ncu.csv'):
                continue
            tag = f[:-len('.ncu.csv')]
            jp = os.path.join(json_dir, tag + '.json')
            if not os.path.exists(jp):
                continue
            hw = load_ncu(os.path.join(ncu_dir, f))
            launches = json.load(open(jp))['launches']
            for i, l in enumerate(launches):
                h = hw.get(i)
                if h is None:
                    continue
                m = l['metrics']
                row = [batch, tag, str(i), h['name']]
                for k in M:
                    row += [num(m[k]) if k in m else '', num(h[k]) if k in h else '']
                row += [num(m.get(k, 0)) for k in FLAGS]
                out.write('\t'.join(row) + '\n')
                n += 1
    print(f'{n} launches')


if __name__ == '__main__':
    main(sys.argv[1:])
