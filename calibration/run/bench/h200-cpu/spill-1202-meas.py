import subprocess, sys, time, resource, os
def run(cmd, env):
    t=time.time(); p=subprocess.run(cmd, env=env, capture_output=True, text=True); w=time.time()-t
    ru=resource.getrusage(resource.RUSAGE_CHILDREN)
    return w, p.returncode, p.stdout[-300:], p.stderr[-300:]
e=dict(os.environ); 
for k,v in [a.split('=',1) for a in sys.argv[2:]]: e[k]=v
w,rc,o,er=run(sys.argv[1].split(), e)
print(f"wall {w:.2f} rc {rc} maxrss {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024:.0f} MB")
print(o[-200:]); print("\n".join(l for l in er.splitlines() if "timing:" in l or "launch" in l)[-3000:])
