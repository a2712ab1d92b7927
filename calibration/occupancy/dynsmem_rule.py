# The rule of cudaOccupancyAvailableDynamicSMemPerBlock over the H200's answers:
#   python3 dynsmem_rule.py h200/dynsmem.stdout   (prints any row the rule misses, then equal / different)
import re,sys
static={'none':0,'small':4096,'big':40960,'heavy':0}
optin=False
bad=0;n_ok=0
def maxblocks(k,t):
    warps=(t+31)//32
    b=min(32, 64//warps)
    if k=='heavy': b=min(b,3)
    return b
for line in open(sys.argv[1]):
    if line.startswith('opt-in'): optin=True; continue
    m=re.match(r"(\w+) blocks (-?\d+) threads (\d+): (\S+) (\d+)",line)
    k,n,t,st,v=m.groups(); n=int(n);t=int(t);v=int(v)
    cap=(102400 if optin and k!='heavy' else 49152-static[k])
    if n<=0 or t>1024 or n>maxblocks(k,t): pred=('cudaErrorInvalidValue',12345)
    else:
        per=(233472//n)//128*128-static[k]
        per=min(per,cap)
        pred=('ok',per) if per>=0 else ('cudaErrorInvalidValue',12345)
    if pred!=(st,v): bad+=1; print('DIFF',line.strip(),pred)
    else: n_ok+=1
print(n_ok,bad)
