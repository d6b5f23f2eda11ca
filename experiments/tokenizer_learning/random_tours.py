#!/usr/bin/python3
"""Mean TSP gap of one random tour and of the best of 8, n uniform in 10..30 on the unit square,
against the best of 20 random restarts of 2-opt (a near-optimal reference). Pure Python, ~1 min."""
import random, math
random.seed(0)
def L(p,t): return sum(math.dist(p[t[i]],p[t[(i+1)%len(t)]]) for i in range(len(t)))
def two_opt(p,t):
    imp=True
    while imp:
        imp=False
        for i in range(1,len(t)-1):
            for j in range(i+1,len(t)):
                a,b,c,d=p[t[i-1]],p[t[i]],p[t[j]],p[t[(j+1)%len(t)]]
                if math.dist(a,c)+math.dist(b,d) < math.dist(a,b)+math.dist(c,d)-1e-12:
                    t[i:j+1]=reversed(t[i:j+1]); imp=True
    return t
g1=[];g8=[];gnn=[]
for k in range(200):
    n=random.randint(10,30); p=[(random.random(),random.random()) for _ in range(n)]
    best=min(L(p,two_opt(p,random.sample(range(n),n))) for _ in range(20))
    rs=[L(p,random.sample(range(n),n)) for _ in range(8)]
    g1.append(rs[0]/best-1); g8.append(min(rs)/best-1)
print("random tour gap %.0f%%, best of 8 random %.0f%%"%(100*sum(g1)/len(g1),100*sum(g8)/len(g8)))
