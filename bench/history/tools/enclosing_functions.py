#!/usr/bin/env python3
"""enclosing_functions.py GITDIR COMMIT -> per .c file, enclosing functions of changed lines (ctags on old/new)."""
import sys, subprocess, json, re, tempfile, os
def sh(*a): return subprocess.run(a, capture_output=True, text=True, errors='replace').stdout
SRC={}
def tags(repo, rev, path):
    src = subprocess.run(['git','-C',repo,'show',f'{rev}:{path}'], capture_output=True).stdout
    SRC[(rev,path)] = src.decode('utf-8','replace').split('\n')
    if not src: return []
    with tempfile.NamedTemporaryFile(suffix='.c', delete=False) as f: f.write(src); fn=f.name
    out = sh('ctags-universal','--languages=C','--kinds-C=f','--fields=+ne','--output-format=json','-o','-',fn)
    os.unlink(fn)
    r=[]
    for l in out.splitlines():
        try: t=json.loads(l)
        except: continue
        if 'line' in t and 'end' in t: r.append((t['line'],t['end'],t['name']))
    return r
KW={'if','for','while','switch','return','sizeof','else','do','case','defined'}
HDR=re.compile(r'^(?:[A-Za-z_][\w\s\*\(\),]*?[\s\*])?([A-Za-z_]\w*)\s*\(')
def fallback(lines, ln):
    # nearest column-0 function header above ln whose body opens with '{' before ln
    i = ln-1
    seen_open = False
    while i >= 0:
        l = lines[i] if i < len(lines) else ''
        if l.startswith('{'): seen_open = True
        elif l.startswith('}') and i < ln-1: return None
        if l and not l[0].isspace() and not l.startswith('#') and not l.startswith('{') and not l.startswith('}') and not l.rstrip().endswith(';'):
            m = HDR.match(l)
            if m and m.group(1) not in KW and (seen_open or l.rstrip().endswith('{')):
                return m.group(1)
        i -= 1
    return None
def find(ts, ln):
    best=None
    for a,b,n in ts:
        if a<=ln<=b and (best is None or a>best[0]): best=(a,b,n)
    if not best: return None
    return ('@', best[0], best[2])
def main(repo, c):
    parent = sh('git','-C',repo,'rev-parse',c+'^').strip()
    files = [l for l in sh('git','-C',repo,'diff','--name-only',parent,c,'--','*.c').split()]
    res = {}
    for f in files:
        d = sh('git','-C',repo,'diff','-U0',parent,c,'--',f)
        old=[];new=[]
        for l in d.splitlines():
            m=re.match(r'@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@',l)
            if m:
                a=int(m[1]); an=int(m[2]) if m[2] is not None else 1
                b=int(m[3]); bn=int(m[4]) if m[4] is not None else 1
                old += range(a,a+an); new += range(b,b+bn)
                if an==0: old.append(a)  # insertion point context
        to=tags(repo,parent,f) if old else []; tn=tags(repo,c,f) if new else []
        fs=[]
        def fix(n, lines):
            if isinstance(n, tuple):
                _, a, n = n
                if re.fullmatch(r'[A-Z_]+_FUNC', n) and a-1 < len(lines):
                    m = re.search(r'_FUNC\s*\(\s*([A-Za-z_]\w*)', lines[a-1])
                    if m: n = m.group(1)
            return n
        for ln in new:
            n=fix(find(tn,ln), SRC.get((c,f),[])) or fallback(SRC.get((c,f),[]),ln)
            if n and n not in fs: fs.append(n)
        for ln in old:
            n=fix(find(to,ln), SRC.get((parent,f),[])) or fallback(SRC.get((parent,f),[]),ln)
            if n and n not in fs: fs.append(n)
        res[f]=fs
    return parent, res
if __name__=='__main__':
    p,r=main(sys.argv[1],sys.argv[2]); print(p); print(json.dumps(r))
