#!/bin/bash
# usage: candidates.sh NAME GITDIR  -> NAME.cands (sha, #.c files, changed lines, date, subject)
name=$1; dir=$2
pat='memory leak|leak|double free|double-free|use after free|use-after-free|UAF|fd leak|file descriptor leak|descriptor leak|resource leak|socket leak|deadlock|unlock|mutex|lock.*not released|missing unlock|double lock|dangling|freed'
git -C $dir log --all --no-merges --since=2013-01-01 -i -E --grep="$pat" --format='%H' -- '*.c' | while read h; do
  st=$(git -C $dir show --numstat --format= $h -- '*.c' | awk '{f++; l+=$1+$2} END{print f+0, l+0}')
  set -- $st
  echo -e "$h\t$1\t$2\t$(git -C $dir log -1 --format='%cs%x09%s' $h)"
done > $name.cands
wc -l $name.cands
