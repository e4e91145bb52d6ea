#include "engine/generate.hpp"

#include "engine/render/render.hpp"
#include "engine/rules/oracle.hpp"

namespace rave::engine {

Problem assemble_problem(const Matrix& matrix, AnswerSet answers, int predict) {
  Problem problem;
  problem.config = matrix.config;
  for (std::size_t i = 0; i < 8; ++i) problem.context[i] = matrix.panels[i];
  problem.candidates = std::move(answers.candidates);
  problem.rules = matrix.rules;
  problem.target = answers.target;
  problem.predict = predict;
  problem.modified = std::move(answers.modified);
  return problem;
}

Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed, std::uint64_t k,
                         std::uint64_t attempt) {
  Rng rng = Rng::for_problem(seed, config_index(config), k, attempt);
  const Matrix matrix = sample_matrix(config, rng);
  AnswerSet answers = build_answer_set(matrix, strategy, rng, render_panel);
  const int predict = oracle_predict(matrix, answers.candidates, rng);
  return assemble_problem(matrix, std::move(answers), predict);
}

}  // namespace rave::engine
