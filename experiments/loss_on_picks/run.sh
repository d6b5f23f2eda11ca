#!/bin/sh
# A released model continued with the loss on its picks only (stages[0].loss_on_notes=false: the
# decoder writes the ranked notes, so SFT skips their tokens) against the same command with the loss
# on every token, from the same start; then the model alone at each kept checkpoint on both held-out
# splits, and the table of results.md.
#   run.sh mis|mvc|op            train both arms (one thread each, side by side), evaluate, print
#   run.sh mis|mvc|op --table    print the table of what is evaluated
# Runs land in runs/loss_on_picks/<problem>_{picks,every}; TSP's pair is models/tsp's card.
set -e
cd "$(dirname "$0")/../.."
p=$1
case "$p" in
  mis) data=configs/data/mis50_toward_greedy.yaml eval_data=configs/data/mis50.yaml steps=500 decay=250 warmup=20 every=50 min_lr=0.05
       eval=experiments/checkpoint_averaging/eval_mis.yaml extra="" ;;
  mvc) data=configs/data/mvc50_toward_greedy.yaml steps=250 decay=150 warmup=10 every=50 min_lr=0.05
       eval=experiments/checkpoint_averaging/eval_mvc.yaml extra="" ;;
  op)  data=configs/data/op20.yaml steps=500 decay=250 warmup=20 every=125 min_lr=0.1
       eval=experiments/loss_on_picks/eval_op.yaml extra="data.augment=true" ;;
  *) echo "usage: run.sh mis|mvc|op [--table]" >&2; exit 2 ;;
esac
out=runs/loss_on_picks
mkdir -p $out/eval
if [ "$2" != "--table" ]; then
  for d in $data ${eval_data:-}; do   # the training data, and the evaluation's where it is another file
    [ -f "$(sed -n 's/^output: //p' "$d")" ] || build/datagen/falcon_datagen "$d" threads=1
  done
  for arm in picks every; do
    keys=""
    [ $arm = picks ] && keys="stages[0].loss_on_notes=false"
    build/tools/falcon_train configs/sft_$p.yaml init.checkpoint=models/$p output_dir=$out/${p}_$arm \
      threads=1 data.config=$data mixed_precision=auto $extra stages[0].steps=$steps stages[0].schedule=wsd \
      stages[0].decay_steps=$decay stages[0].min_lr_ratio=$min_lr stages[0].lr=5.0e-4 \
      stages[0].warmup_steps=$warmup eval.instances=0 checkpoint.every=$every checkpoint.keep_last=20 \
      $keys > $out/${p}_$arm.log 2>&1 &
  done
  wait
  for split in val test; do
    build/tools/falcon_eval $eval model.path=models/$p data.split=$split output_dir=$out/eval/${p}_start_$split --quiet
    for ck in $out/${p}_picks/checkpoints/step_* $out/${p}_every/checkpoints/step_*; do
      name=$(basename "$(dirname "$(dirname "$ck")")")_$(basename "$ck")
      build/tools/falcon_eval $eval model.path= model.checkpoint=$ck model.tokenizer=models/$p/tokenizer.model \
        data.split=$split output_dir=$out/eval/${name}_$split --quiet
    done
  done
fi
python3 experiments/loss_on_picks/table.py $out/eval $p
