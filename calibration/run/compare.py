#!/usr/bin/env python3
"""Compares `warpscope run --export P.json -- ./P ARGS` with ncu's CSV of the same program
(`ncu --csv --metrics <ncu.sh's list> ./P ARGS`): per launch, the shared-memory instructions and
wavefronts, the branch counters, the global requests/sectors, the registers and theoretical occupancy that
differ (with the counters' claim when it is an estimate); then the counts.
Shared wavefronts are compared under ncu's instruction-attributed names
(`sm__sass_l1tex_..._op_ld/_st`) where the CSV has them; the L1 unit's own count
(`l1tex__..._op_ld/_st`) is warpscope's floor: a launch where it is lower than warpscope's is
listed (`U=`), one where it is higher is not a difference (L1 contention the GPU adds).
  python3 compare.py P.ncu.csv P.json [P2.ncu.csv P2.json ...]"""
import csv, io, json, sys

S = ['smsp__sass_inst_executed_op_shared_ld.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
     'smsp__sass_inst_executed_op_shared_st.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum']
B = ['smsp__sass_branch_targets.sum', 'smsp__sass_branch_targets_threads_divergent.sum']
G = ['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
     'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum']
SA = ['smsp__sass_inst_executed_op_shared_ld.sum', 'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
      'smsp__sass_inst_executed_op_shared_st.sum', 'sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum']
R = ['launch__registers_per_thread', 'sm__maximum_warps_per_active_cycle_pct']
U = ['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum']
SHORT = {k: k.split('__')[1].split('.')[0].replace('sass_inst_executed_op_', '').replace(
    'sass_l1tex_data_pipe_lsu_wavefronts_mem_', 'wf_attr_').replace(
    'data_pipe_lsu_wavefronts_mem_', 'wf_').replace('sass_branch_targets', 'br').replace(
    't_requests_pipe_lsu_mem_', 'req_').replace('t_sectors_pipe_lsu_mem_', 'sec_') for k in S + SA + B + G}


def load_ncu(path):
    out = {}
    lines = [l for l in open(path, errors='replace') if l.startswith('"')]
    for r in csv.DictReader(io.StringIO(''.join(lines))):
        v = r['Metric Value'].replace(',', '')
        try:
            v = float(v)
        except ValueError:
            continue
        out.setdefault(int(r['ID']), {'name': r['Kernel Name']})[r['Metric Name']] = v
    return out


def diff(keys, ours, hw):
    return [(SHORT[k], ours.get(k), hw.get(k)) for k in keys if ours.get(k) != hw.get(k)]


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    tot = dict(n=0, s=0, b=0, sb=0, g=0, r=0)
    for csv_path, json_path in zip(args[::2], args[1::2]):
        hw = load_ncu(csv_path)
        launches = json.load(open(json_path))['launches']
        if len(launches) != len(hw):
            print(f'{json_path}: warpscope recorded {len(launches)} launches, ncu {len(hw)}')
        for i, l in enumerate(launches):
            h = hw.get(i)
            if h is None:
                continue
            m = l['metrics']
            shared = SA if all(k in h for k in SA) else S
            ds, db, dg = diff(shared, m, h), diff(B, m, h), diff(G, m, h)
            dr = [(k.split('__')[1].split('.')[0], m.get(k), h.get(k)) for k in R if k in h and m.get(k) != h.get(k)]
            if shared is SA:
                du = [(SHORT[k], m.get(k), h.get(k)) for k in U if m.get(k, 0) > h.get(k, 0)]
                ds += [('U', x) for x in du]
            tot['n'] += 1; tot['s'] += not ds; tot['b'] += not db; tot['sb'] += not ds and not db; tot['g'] += not dg
            tot['r'] += not dr
            if ds or db or dg or dr:
                print(f'{json_path}#{i} {h["name"][:40]:40} S={ds or "ok"} B={db or "ok"} G={dg or "ok"}'
                      f'{" R=" + str(dr) if dr else ""}'
                      f'{"" if m.get("warpscope__branch_counters_exact", 1) else " (branch: estimate)"}'
                      f'{"" if m.get("warpscope__shared_counters_exact", 1) else " (shared: estimate)"}'
                      f'{"" if m.get("warpscope__global_counters_exact", 1) else " (global: estimate)"}')
    n = tot['n']
    print(f'{n} launches: shared equal {tot["s"]}, branch equal {tot["b"]}, both {tot["sb"]}, global equal {tot["g"]}, '
          f'registers and occupancy equal {tot["r"]}')


if __name__ == '__main__':
    main()
