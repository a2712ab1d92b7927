# The cluster-occupancy rule and its alternatives over the H200's answers: python3 occupancy_rule.py
# prints the rows read, then the rows each rule breaks (the rule: 0).
import re
G=[18,18,16,16,16,16,16,8]
rows=[]
for line in open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'h200/occupancy.stdout')):
    if not line.startswith('active '): continue
    w=line.split()
    if 'cluster' not in w: continue
    c=w.index('cluster')
    if len(w)<c+9 or w[c+4]!='ok' or w[c+7]!='ok': continue
    size=1
    for d in w[c+1].split('x'): size*=int(d)
    attr = w[c+3]=='1:'
    n=int(w[c+5]); b=int(w[c+8].rstrip(')'))
    if attr or not line.startswith('active light '): rows.append((b,size,n))
print(len(rows))
def gp(g,b,c,fit): return sum(b*s//c for s in g if (not fit or s>=c))
def rule(b,c):
    b=min(b,8)
    if b==0: return 0
    return 132*b//c if c<=2 else gp(G,b,c,True)
alts={
 'all':lambda b,c:132*min(b,8)//c,
 'gpcs':lambda b,c:gp(G,min(b,8),c,True),
 'nocap':lambda b,c:132*b//c if c<=2 else gp(G,b,c,True),
 'small':lambda b,c:132*min(b,8)//c if c<=2 else gp(G,min(b,8),c,False),
 '8gpc':lambda b,c:132*min(b,8)//c if c<=2 else gp([18,18,16,16,16,16,16,16],min(b,8),c,True),
 '7gpc':lambda b,c:132*min(b,8)//c if c<=2 else gp(G[:7],min(b,8),c,True),
}
print('rule', sum(rule(b,c)!=n for b,c,n in rows))
for k,f in alts.items(): print(k, sum(f(b,c)!=n for b,c,n in rows))
