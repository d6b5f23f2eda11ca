#include "falcon/distributed/environment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "falcon/core/error.h"
#include "falcon/distributed/shard.h"

namespace falcon::distributed {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

using Vars = std::map<std::string, std::string>;

std::string error_of(const Vars& vars) {
  try {
    parse_distributed_env(vars);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DistributedEnv, NothingSetIsOneProcessWithoutNetwork) {
  const auto env = parse_distributed_env({});
  EXPECT_EQ(env.rank, 0);
  EXPECT_EQ(env.world_size, 1);
  EXPECT_EQ(env.local_rank, 0);
  EXPECT_FALSE(env.distributed());
  EXPECT_TRUE(env.master_addr.empty());
  // World 1 needs no rendezvous, so a missing MASTER_PORT is fine.
  EXPECT_FALSE(parse_distributed_env({{"RANK", "0"}, {"WORLD_SIZE", "1"}}).distributed());
}

TEST(DistributedEnv, TorchrunStyle) {
  const auto env = parse_distributed_env({{"RANK", "3"},
                                          {"WORLD_SIZE", "4"},
                                          {"LOCAL_RANK", "1"},
                                          {"MASTER_ADDR", "node7"},
                                          {"MASTER_PORT", "29500"}});
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.world_size, 4);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(env.master_addr, "node7");
  EXPECT_EQ(env.master_port, 29500);
  EXPECT_EQ(env.local_world_size, 4);  // unset: WORLD_SIZE
  EXPECT_FALSE(env.from_slurm);
  EXPECT_EQ(parse_distributed_env({{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"},
                                   {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}})
                .local_world_size,
            2);
  // LOCAL_RANK defaults to RANK (one node).
  EXPECT_EQ(parse_distributed_env({{"RANK", "2"}, {"WORLD_SIZE", "3"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}})
                .local_rank,
            2);
}

TEST(DistributedEnv, SlurmVariablesStandInForRankAndWorld) {
  const Vars slurm = {{"SLURM_PROCID", "5"},
                      {"SLURM_NTASKS", "8"},
                      {"SLURM_LOCALID", "1"},
                      {"MASTER_ADDR", "n0"},
                      {"MASTER_PORT", "29400"}};
  const auto env = parse_distributed_env(slurm);
  EXPECT_EQ(env.rank, 5);
  EXPECT_EQ(env.world_size, 8);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(env.local_world_size, 8);
  EXPECT_TRUE(env.from_slurm);
  Vars per_node = slurm;
  per_node["SLURM_NTASKS_PER_NODE"] = "4";
  EXPECT_EQ(parse_distributed_env(per_node).local_world_size, 4);
  // RANK / WORLD_SIZE from a launcher inside the allocation win over Slurm's.
  Vars both = slurm;
  both["RANK"] = "0";
  both["WORLD_SIZE"] = "2";
  const auto torchrun = parse_distributed_env(both);
  EXPECT_EQ(torchrun.rank, 0);
  EXPECT_EQ(torchrun.world_size, 2);
  EXPECT_EQ(torchrun.local_rank, 0);  // SLURM_LOCALID ignored when RANK is the source
  EXPECT_FALSE(torchrun.from_slurm);
  // Slurm errors name the Slurm variable.
  EXPECT_THAT(error_of({{"SLURM_PROCID", "8"}, {"SLURM_NTASKS", "8"}}),
              AllOf(HasSubstr("SLURM_PROCID=8"), HasSubstr("SLURM_NTASKS=8")));
  EXPECT_THAT(error_of({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}}), HasSubstr("MASTER_ADDR"));
}

TEST(DistributedEnv, ErrorsNameTheVariableAndWhatToSet) {
  EXPECT_THAT(error_of({{"RANK", "one"}, {"WORLD_SIZE", "2"}}), AllOf(HasSubstr("RANK='one'"), HasSubstr("set RANK")));
  EXPECT_THAT(error_of({{"RANK", "-1"}, {"WORLD_SIZE", "2"}}), HasSubstr("RANK='-1'"));
  EXPECT_THAT(error_of({{"RANK", "1x"}, {"WORLD_SIZE", "2"}}), HasSubstr("RANK='1x'"));
  EXPECT_THAT(error_of({{"RANK", "2"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "1"}}),
              AllOf(HasSubstr("RANK=2"), HasSubstr("WORLD_SIZE=2"), HasSubstr("0..1")));
  EXPECT_THAT(error_of({{"RANK", "0"}, {"WORLD_SIZE", "0"}}), HasSubstr("WORLD_SIZE='0'"));
  EXPECT_THAT(error_of({{"RANK", "0"}}), AllOf(HasSubstr("WORLD_SIZE is not"), HasSubstr("set WORLD_SIZE")));
  EXPECT_THAT(error_of({{"WORLD_SIZE", "2"}}), AllOf(HasSubstr("RANK is not"), HasSubstr("set RANK")));
  EXPECT_THAT(error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}}),
              AllOf(HasSubstr("MASTER_PORT is not set"), HasSubstr("set MASTER_PORT")));
  EXPECT_THAT(error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", "29500"}}),
              AllOf(HasSubstr("MASTER_ADDR is not set"), HasSubstr("set MASTER_ADDR")));
  EXPECT_THAT(error_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "70000"}}),
              AllOf(HasSubstr("MASTER_PORT='70000'"), HasSubstr("1..65535")));
  EXPECT_THAT(error_of({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"LOCAL_RANK", "a"}}), HasSubstr("LOCAL_RANK='a'"));
}

TEST(Shard, SlicesConcatenateToTheWholeBatchAndDifferByAtMostOne) {
  for (const std::int64_t total : {0, 1, 7, 8, 100}) {
    for (const int world : {1, 2, 3, 5}) {
      std::vector<std::int64_t> all;
      std::int64_t smallest = total, largest = 0;
      for (int rank = 0; rank < world; ++rank) {
        const auto part = shard_indices(total, rank, world);
        all.insert(all.end(), part.begin(), part.end());
        smallest = std::min<std::int64_t>(smallest, static_cast<std::int64_t>(part.size()));
        largest = std::max<std::int64_t>(largest, static_cast<std::int64_t>(part.size()));
        EXPECT_EQ(static_cast<std::int64_t>(part.size()), shard_range(total, rank, world).size());
      }
      ASSERT_EQ(static_cast<std::int64_t>(all.size()), total) << total << " over " << world;
      for (std::int64_t i = 0; i < total; ++i) EXPECT_EQ(all[i], i);
      EXPECT_LE(largest - smallest, 1);
    }
  }
}

TEST(Shard, LossScalesAverageToTheGlobalMean) {
  // 7 per-row losses over 3 ranks (2, 2, 3 rows): the mean over ranks of scale_r * mean_r is
  // the mean over all 7 rows, which is what averaging the ranks' gradients needs.
  const std::vector<double> row_loss = {0.5, 1.5, 2.0, 4.0, 0.25, 3.0, 1.0};
  double global = 0.0;
  for (const double l : row_loss) global += l / 7.0;
  double averaged = 0.0;
  for (int rank = 0; rank < 3; ++rank) {
    const auto range = shard_range(7, rank, 3);
    double mean = 0.0;
    for (auto i = range.begin; i < range.end; ++i) mean += row_loss[i] / static_cast<double>(range.size());
    averaged += shard_loss_scale(7, rank, 3) * mean / 3.0;
  }
  EXPECT_NEAR(averaged, global, 1e-12);
  EXPECT_DOUBLE_EQ(shard_loss_scale(8, 1, 2), 1.0);
  EXPECT_DOUBLE_EQ(shard_loss_scale(2, 0, 3), 0.0);  // 2 rows over 3 ranks: rank 0 has none
  EXPECT_THROW(shard_range(5, 2, 2), Error);
  EXPECT_THROW(shard_range(-1, 0, 1), Error);
}

}  // namespace
}  // namespace falcon::distributed
