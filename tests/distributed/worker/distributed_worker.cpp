// One data-parallel training run for the distributed tests: K steps of a small model on a
// deterministic global batch, split over the ranks the environment describes (or over
// `--nproc N` local workers), gradients averaged with DistributedContext. Rank 0 writes the
// final weights to --out, every other rank to --out.rank<R>, so the test can compare a
// one-process run with a multi-process one and the ranks with each other.
//
//   distributed_worker --out W.safetensors [--model mlp|lm] [--optimizer sgd|adamw] [--steps K]
//                      [--batch B] [--timeout-ms T] [--bucket-bytes N] [--fail-rank R]
//                      [--hang] [--nproc N]
#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "falcon/core/error.h"
#include "falcon/core/torch/runtime.h"
#include "falcon/distributed/context.h"
#include "falcon/distributed/launcher.h"
#include "falcon/distributed/shard.h"
#include "falcon/model/safetensors.h"
#include "falcon/model/transformer.h"

namespace {

using falcon::Error;
namespace dist = falcon::distributed;

struct Args {
  std::string out;
  std::string model = "mlp";
  std::string optimizer = "sgd";
  int steps = 4;
  std::int64_t batch = 8;
  long timeout_ms = 60000;
  std::int64_t bucket_bytes = dist::kDefaultBucketBytes;
  int fail_rank = -1;  // this rank exits with code 3 after joining the job
  bool hang = false;   // every rank sleeps instead of training (launcher timeout test)
  int nproc = 0;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "--hang") {
      a.hang = true;
      continue;
    }
    if (i + 1 >= argc) throw Error(fmt::format("{} needs a value", key));
    const std::string value = argv[++i];
    if (key == "--out") a.out = value;
    else if (key == "--model") a.model = value;
    else if (key == "--optimizer") a.optimizer = value;
    else if (key == "--steps") a.steps = std::stoi(value);
    else if (key == "--batch") a.batch = std::stoll(value);
    else if (key == "--timeout-ms") a.timeout_ms = std::stol(value);
    else if (key == "--bucket-bytes") a.bucket_bytes = std::stoll(value);
    else if (key == "--fail-rank") a.fail_rank = std::stoi(value);
    else if (key == "--nproc") a.nproc = std::stoi(value);
    else throw Error(fmt::format("unknown option {}", key));
  }
  if (a.out.empty() && !a.hang) throw Error("--out is required");
  return a;
}

// A model with one parameter that only global row 0 reaches, so with several ranks only the
// rank holding row 0 has its gradient (average_gradients must zero-fill it on the others).
struct Mlp : torch::nn::Module {
  Mlp() {
    fc = register_module("fc", torch::nn::Linear(8, 16));
    head = register_module("head", torch::nn::Linear(16, 1));
    row0 = register_module("row0", torch::nn::Linear(8, 1));
  }
  torch::nn::Linear fc{nullptr}, head{nullptr}, row0{nullptr};
};

falcon::model::ModelConfig tiny_lm() {
  falcon::model::ModelConfig c;
  c.vocab_size = 32;
  c.hidden_size = 16;
  c.intermediate_size = 24;
  c.num_hidden_layers = 2;
  c.num_attention_heads = 2;
  c.num_key_value_heads = 1;
  c.max_position_embeddings = 64;
  return c;
}

int run(const Args& args) {
  falcon::init_torch_runtime(1);  // one thread per worker: deterministic and no oversubscription
  dist::DistributedOptions options;
  options.timeout = std::chrono::milliseconds(args.timeout_ms);
  options.bucket_bytes = args.bucket_bytes;
  auto ctx = dist::DistributedContext::from_environment(options);
  const int rank = ctx.rank(), world = ctx.world_size();
  if (rank == args.fail_rank) {
    std::fprintf(stderr, "rank %d fails on purpose\n", rank);
    return 3;
  }

  // Different initial weights per rank: broadcast must make rank 0's the common start.
  torch::manual_seed(1000 + rank);
  std::shared_ptr<torch::nn::Module> module;
  std::shared_ptr<Mlp> mlp;
  falcon::model::CausalLm lm{nullptr};
  if (args.model == "mlp") {
    module = mlp = std::make_shared<Mlp>();
  } else if (args.model == "lm") {
    lm = falcon::model::CausalLm(tiny_lm());
    module = lm.ptr();
  } else {
    throw Error("--model must be mlp or lm");
  }
  std::vector<torch::Tensor> params = module->parameters();
  ctx.broadcast(params, 0);

  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (args.optimizer == "sgd") {
    optimizer = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(0.1).momentum(0.9));
  } else if (args.optimizer == "adamw") {
    optimizer = std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(1e-2));
  } else {
    throw Error("--optimizer must be sgd or adamw");
  }

  const dist::IndexRange mine = dist::shard_range(args.batch, rank, world);
  const double scale = dist::shard_loss_scale(args.batch, rank, world);
  double loss_total = 0.0;
  for (int step = 0; step < args.steps; ++step) {
    torch::manual_seed(7 + step);  // the same global batch on every rank
    optimizer->zero_grad();
    torch::Tensor loss;
    if (mlp) {
      const auto x = torch::randn({args.batch, 8}).narrow(0, mine.begin, mine.size());  // (b, 8)
      const auto y = torch::randn({args.batch, 1}).narrow(0, mine.begin, mine.size());  // (b, 1)
      const auto pred = mlp->head(torch::tanh(mlp->fc(x)));                             // (b, 1)
      loss = torch::mse_loss(pred, y) * scale;
      if (mine.begin == 0 && mine.size() > 0) {
        // A global (not per-row-mean) term: times world, since the ranks' gradients are averaged.
        loss = loss + mlp->row0(x.narrow(0, 0, 1)).pow(2).sum() * world;
      }
    } else {
      const auto tokens = torch::randint(0, tiny_lm().vocab_size, {args.batch, 9}, torch::kInt64)
                              .narrow(0, mine.begin, mine.size());  // (b, 9)
      const auto logits = lm->forward(tokens.narrow(1, 0, 8));    // (b, 8, V)
      loss = torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}),
                                                  tokens.narrow(1, 1, 8).reshape({-1})) *
             scale;
    }
    loss.backward();
    ctx.average_gradients(params);
    optimizer->step();
    loss_total += ctx.all_reduce_sum(loss.item<double>()) / world;
  }

  // The scalar collectives agree across ranks.
  const auto ranks = ctx.all_gather(std::vector<std::int64_t>{rank, 10 * rank});
  for (int r = 0; r < world; ++r) {
    if (ranks[r] != std::vector<std::int64_t>{r, 10 * r}) throw Error(fmt::format("all_gather: wrong entry {}", r));
  }
  ctx.barrier();

  falcon::model::TensorMap weights;
  for (const auto& p : module->named_parameters()) weights[p.key()] = p.value().detach().clone();
  const std::string path = rank == 0 ? args.out : fmt::format("{}.rank{}", args.out, rank);
  falcon::model::write_safetensors(path, weights,
                                   {{"world_size", std::to_string(world)}, {"loss", fmt::format("{:.17g}", loss_total)}});
  if (ctx.is_main()) std::printf("world %d, backend %s, loss %.6f\n", world, ctx.backend_name().c_str(), loss_total);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse_args(argc, argv);
    if (args.nproc > 0) {
      const auto result = dist::spawn_local_workers(args.nproc, std::vector<std::string>(argv, argv + argc));
      if (!result.ok()) std::fprintf(stderr, "%s\n", result.message.c_str());
      return result.exit_code;
    }
    if (args.hang) {
      std::this_thread::sleep_for(std::chrono::minutes(10));
      return 0;
    }
    return run(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "distributed_worker: %s\n", e.what());
    return 1;
  }
}
