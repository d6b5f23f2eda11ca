#include "falcon/train/dpo.h"

#include "falcon/scoring/sample_outcome.h"
#include "falcon/train/policy_scoring.h"

namespace falcon::train {

torch::Tensor dpo_loss(const torch::Tensor& logp_winner, const torch::Tensor& logp_loser,
                       const torch::Tensor& ref_winner, const torch::Tensor& ref_loser, double beta, double count) {
  auto margin = (logp_winner - ref_winner) - (logp_loser - ref_loser);  // (P,)
  auto per_pair = -torch::log_sigmoid(beta * margin);                   // (P,)
  return count > 0 ? per_pair.sum() / count : per_pair.mean();          // ()
}

MicroBatch prepare_dpo(const std::vector<policy::RolloutItem>& items,
                       const std::vector<std::vector<policy::RolloutSample>>& groups, const recipe::StageSpec&) {
  MicroBatch batch;
  batch.kind = recipe::StageKind::kDpo;
  auto& m = batch.metrics;
  for (std::size_t g = 0; g < items.size(); ++g) {
    const auto& problem = *items[g].problem;
    int best = -1, worst = -1;
    for (int k = 0; k < static_cast<int>(groups[g].size()); ++k) {
      if (groups[g][k].train_tokens.empty()) continue;
      if (best < 0 || scoring::better(problem, groups[g][k].outcome, groups[g][best].outcome)) best = k;
      if (worst < 0 || scoring::better(problem, groups[g][worst].outcome, groups[g][k].outcome)) worst = k;
    }
    if (best < 0 || !scoring::better(problem, groups[g][best].outcome, groups[g][worst].outcome)) {
      ++m.skipped_groups;
      continue;
    }
    ++m.groups;
    batch.winner.push_back(static_cast<std::int64_t>(batch.sequences.size()));
    batch.sequences.push_back({items[g].prompt, groups[g][best].train_tokens});
    batch.item_of.push_back(g);
    batch.loser.push_back(static_cast<std::int64_t>(batch.sequences.size()));
    batch.sequences.push_back({items[g].prompt, groups[g][worst].train_tokens});
    batch.item_of.push_back(g);
  }
  m.pairs = m.groups;
  batch.count = static_cast<double>(m.pairs);
  return batch;
}

MicroBatchLoss dpo_micro_batch_loss(model::CausalLm& model, const MicroBatch& batch, const recipe::StageSpec& stage,
                                    int pad_id, double step_count) {
  const auto scored = score_sequences(model, batch.sequences, pad_id);
  const auto device = scored.sequence_logp.device();
  auto ref = score_under_reference(model, batch.sequences, pad_id).sequence_logp;  // (S,)
  auto w = torch::tensor(batch.winner, torch::kInt64).to(device);                  // (P,)
  auto l = torch::tensor(batch.loser, torch::kInt64).to(device);                   // (P,)
  const auto& lp = scored.sequence_logp;                                           // (S,)
  auto loss = dpo_loss(lp.index_select(0, w), lp.index_select(0, l), ref.index_select(0, w), ref.index_select(0, l),
                       stage.keys_of<recipe::DpoKeys>().beta, step_count);
  return {loss, scored.tokens, scored.positions};
}

}  // namespace falcon::train
