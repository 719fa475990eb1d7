import re, sys, datetime as dt, hashlib
REF = dt.datetime(2013,2,12,4,30)
def rows(path, lang):
    s=open(path).read()
    start = s.index('allExamples ::')
    s = s[start:]
    out=[]
    for m in re.finditer(r'examples\s*\(datetime\s*\((\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\)\s*(\w+)\)\s*\[(.*?)\n\s*\]', s, re.S):
        y,mo,d,h,mi,se = map(int, m.groups()[:6]); grain=m.group(7)
        phrases = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(8))
        try: at = dt.datetime(y,mo,d,h,mi,se)
        except ValueError: continue
        for p in dict.fromkeys(phrases):
            out.append((p, at, grain))
    return out
seen=set()
res=[]
for lang in ['en','es']:
    for p, at, grain in rows(f'/tmp/dk/{lang}.hs', lang):
        key=(lang,p.lower())
        if key in seen: continue
        seen.add(key)
        if grain in ('Week','Month','Year','Quarter'): continue
        if grain == 'Day':
            when = dt.datetime(at.year,at.month,at.day,9,0)
        else:
            when = at
        if when <= REF:
            exp = '!*'
        else:
            exp = when.strftime('%Y-%m-%d %H:%M')
        part = 'dev' if int(hashlib.sha256(p.encode()).hexdigest(),16)%2==0 else 'test'
        res.append((lang,p,exp,part,grain))
import collections
print(collections.Counter((r[0],r[3]) for r in res), collections.Counter(r[4] for r in res), sum(1 for r in res if r[2]=='!*'))
with open('/tmp/dk/rows.tsv','w') as f:
    for r in res: f.write('\t'.join(r[:4])+'\n')
