// Collectives with real c10d process groups: the ranks run as threads of this process, each
// with its own TCPStore client and Gloo group on 127.0.0.1 (c10d allows several per process).
#include "falcon/distributed/context.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <thread>

#include "falcon/core/error.h"
#include "falcon/distributed/launcher.h"
#include "tests/distributed/gloo_skip.h"

namespace falcon::distributed {
namespace {

using ::testing::HasSubstr;

DistributedOptions test_options() {
  DistributedOptions options;
  options.timeout = std::chrono::seconds(30);  // a broken test fails instead of blocking CI
  return options;
}

// Runs fn(context) on `world` ranks in parallel; rethrows the first rank's failure.
void run_ranks(int world, const std::function<void(DistributedContext&)>& fn,
               const DistributedOptions& options = test_options()) {
  const int port = find_free_port();
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        DistributedEnv env;
        env.rank = rank;
        env.world_size = world;
        env.local_rank = rank;
        env.master_addr = "127.0.0.1";
        env.master_port = port;
        DistributedContext ctx(env, options);
        fn(ctx);
        ctx.barrier();  // nobody tears the group down while another rank still uses it
      } catch (...) {
        errors[static_cast<std::size_t>(rank)] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

TEST(DistributedContext, OneProcessIsANoOp) {
  DistributedContext ctx;
  EXPECT_EQ(ctx.rank(), 0);
  EXPECT_EQ(ctx.world_size(), 1);
  EXPECT_TRUE(ctx.is_main());
  EXPECT_FALSE(ctx.distributed());
  EXPECT_EQ(ctx.backend_name(), "none");
  std::vector<torch::Tensor> t = {torch::tensor({1.0f, 2.0f})};
  ctx.all_reduce_mean(t);
  ctx.broadcast(t, 0);
  ctx.barrier();
  EXPECT_TRUE(torch::equal(t[0], torch::tensor({1.0f, 2.0f})));
  EXPECT_EQ(ctx.all_reduce_sum(2.5), 2.5);
  EXPECT_EQ(ctx.all_gather(std::vector<std::int64_t>{4, 5}), (std::vector<std::vector<std::int64_t>>{{4, 5}}));
  EXPECT_THROW(ctx.broadcast(t, 1), Error);
  std::vector<torch::Tensor> ints = {torch::tensor({1, 2})};
  EXPECT_THROW(ctx.all_reduce_mean(ints), Error);  // same checks as with several ranks
}

TEST(DistributedContext, AllReduceMeanOverBucketsOfMixedDtypes) {
  FALCON_SKIP_WITHOUT_GLOO();
  DistributedOptions options = test_options();
  options.bucket_bytes = 40;  // several buckets: 10 floats each at most
  run_ranks(3, [](DistributedContext& ctx) {
    EXPECT_EQ(ctx.backend_name(), "gloo");
    const double r = ctx.rank();
    std::vector<torch::Tensor> t = {
        torch::full({3, 4}, r, torch::kFloat32),           // 48 bytes: a bucket of its own
        torch::arange(5, torch::kFloat64) * (r + 1),       // (5,)
        torch::full({2}, 10.0 * r, torch::kFloat32),       // (2,)
        torch::full({2, 2}, r, torch::kBFloat16),          // widened to float on the wire
        torch::full({3, 2}, -r, torch::kFloat32).select(1, 0),  // (3,), strided
    };
    ctx.all_reduce_mean(t);
    EXPECT_TRUE(torch::allclose(t[0], torch::full({3, 4}, 1.0f)));
    EXPECT_TRUE(torch::allclose(t[1], torch::arange(5, torch::kFloat64) * 2.0));
    EXPECT_TRUE(torch::allclose(t[2], torch::full({2}, 10.0f)));
    EXPECT_TRUE(torch::equal(t[3], torch::full({2, 2}, 1.0, torch::kBFloat16)));
    EXPECT_TRUE(torch::allclose(t[4], torch::full({3}, -1.0f)));
  }, options);
}

TEST(DistributedContext, BroadcastGivesEveryRankTheRootsValues) {
  FALCON_SKIP_WITHOUT_GLOO();
  run_ranks(2, [](DistributedContext& ctx) {
    const auto seed = ctx.rank() + 1;
    std::vector<torch::Tensor> t = {torch::full({2, 3}, static_cast<float>(seed)),
                                    torch::full({4}, static_cast<std::int64_t>(seed) * 100, torch::kInt64),
                                    torch::full({1}, ctx.rank() == 1, torch::kBool)};
    ctx.broadcast(t, 1);
    EXPECT_TRUE(torch::equal(t[0], torch::full({2, 3}, 2.0f)));
    EXPECT_TRUE(torch::equal(t[1], torch::full({4}, 200, torch::kInt64)));
    EXPECT_TRUE(t[2].item<bool>());
  });
}

TEST(DistributedContext, ScalarSumsAndGathers) {
  FALCON_SKIP_WITHOUT_GLOO();
  run_ranks(3, [](DistributedContext& ctx) {
    const int r = ctx.rank();
    EXPECT_DOUBLE_EQ(ctx.all_reduce_sum(r + 0.5), 4.5);
    EXPECT_EQ(ctx.all_reduce_sum(std::vector<double>{1.0, static_cast<double>(r)}), (std::vector<double>{3.0, 3.0}));
    const auto gathered = ctx.all_gather(std::vector<std::int64_t>{r, -r});
    ASSERT_EQ(gathered.size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(gathered[i], (std::vector<std::int64_t>{i, -i}));
    const auto doubles = ctx.all_gather(std::vector<double>{0.25 * r});
    EXPECT_EQ(doubles[2], std::vector<double>{0.5});
  });
}

TEST(DistributedContext, AverageGradientsAgreesOnMissingGradients) {
  FALCON_SKIP_WITHOUT_GLOO();
  run_ranks(2, [](DistributedContext& ctx) {
    auto a = torch::zeros({2}, torch::requires_grad());
    auto b = torch::zeros({3}, torch::requires_grad());  // only rank 0 reaches it
    auto c = torch::zeros({1}, torch::requires_grad());  // nobody reaches it
    auto loss = (a * (ctx.rank() + 1.0)).sum();          // grad a: 1 on rank 0, 2 on rank 1
    if (ctx.rank() == 0) loss = loss + (b * 4.0).sum();  // grad b: 4 on rank 0 only
    loss.backward();
    ctx.average_gradients({a, b, c});
    EXPECT_TRUE(torch::allclose(a.grad(), torch::full({2}, 1.5f)));
    ASSERT_TRUE(b.grad().defined()) << "rank " << ctx.rank();
    EXPECT_TRUE(torch::allclose(b.grad(), torch::full({3}, 2.0f)));
    EXPECT_FALSE(c.grad().defined());
  });
}

// Each rank's loss is its part of a global sum: gradients add up (missing ones as zeros).
TEST(DistributedContext, SumGradientsAddsTheRanksGradients) {
  FALCON_SKIP_WITHOUT_GLOO();
  run_ranks(2, [](DistributedContext& ctx) {
    auto a = torch::zeros({2}, torch::requires_grad());
    auto b = torch::zeros({3}, torch::requires_grad());  // only rank 1 reaches it
    auto loss = (a * (ctx.rank() + 1.0)).sum();          // grad a: 1 on rank 0, 2 on rank 1
    if (ctx.rank() == 1) loss = loss + (b * 4.0).sum();
    loss.backward();
    ctx.sum_gradients({a, b});
    EXPECT_TRUE(torch::allclose(a.grad(), torch::full({2}, 3.0f)));
    ASSERT_TRUE(b.grad().defined()) << "rank " << ctx.rank();
    EXPECT_TRUE(torch::allclose(b.grad(), torch::full({3}, 4.0f)));
    std::vector<torch::Tensor> t = {torch::full({2}, ctx.rank() + 0.5, torch::kFloat64)};
    ctx.all_reduce_sum(t);
    EXPECT_TRUE(torch::equal(t[0], torch::full({2}, 2.0, torch::kFloat64)));
  });
}

TEST(DistributedContext, DifferentParameterListsAreAnErrorNotAHang) {
  FALCON_SKIP_WITHOUT_GLOO();
  try {
    run_ranks(2, [](DistributedContext& ctx) {
      std::vector<torch::Tensor> params(static_cast<std::size_t>(ctx.rank() + 1), torch::zeros({1}));
      ctx.average_gradients(params);
    });
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("same model's parameters"));
  }
}

TEST(DistributedContext, BadEnvironmentAndBackendAreErrors) {
  DistributedEnv env;
  env.rank = 1;
  env.world_size = 1;
  EXPECT_THROW(DistributedContext(env, test_options()), Error);
  env.world_size = 2;
  env.master_addr = "127.0.0.1";
  env.master_port = 1;
  DistributedOptions options = test_options();
  options.backend = "mpi";
  try {
    DistributedContext ctx(env, options);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("unknown backend 'mpi'"));
  }
  options.backend = "nccl";
  EXPECT_THROW(DistributedContext(env, options), Error);  // no NCCL here, or not a CUDA device
}

TEST(DistributedContext, MissingPeerFailsAfterTheTimeoutNamingTheRendezvous) {
  FALCON_SKIP_WITHOUT_GLOO();
  DistributedEnv env;
  env.rank = 0;
  env.world_size = 2;
  env.master_addr = "127.0.0.1";
  env.master_port = find_free_port();
  DistributedOptions options;
  options.timeout = std::chrono::milliseconds(1000);  // at 300 ms, 1.13 gave up at once ("after 0s")
  try {
    DistributedContext ctx(env, options);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()), HasSubstr("MASTER_PORT=" + std::to_string(env.master_port)));
  }
}

}  // namespace
}  // namespace falcon::distributed
