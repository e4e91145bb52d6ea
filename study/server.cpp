#include "study/server.hpp"

#include <httplib.h>

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <unordered_map>

#include "common/error.hpp"
#include "evaluation/items.hpp"
#include "evaluation/vlm.hpp"
#include "study/page.hpp"
#include "study/store.hpp"

namespace rave::study {
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr std::int64_t kMaxMilliseconds = 24LL * 3600 * 1000;

// A request that cannot be served: its status and message (sent as {"error": message}).
struct Refusal {
  int status;
  std::string message;
};

std::string new_token() {
  std::random_device device;  // the kernel's random source
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 32; ++i) token += kHex[device() % 16];
  return token;
}

void reply(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(), "application/json");
}

Json parse_body(const httplib::Request& req) {
  Json body = Json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object())
    throw Refusal{400, "the request body is not a JSON object"};
  return body;
}

std::int64_t integer_field(const Json& body, const char* name, std::int64_t lo, std::int64_t hi) {
  const auto it = body.find(name);
  if (it == body.end() || !it->is_number_integer())
    throw Refusal{400, std::string("\"") + name + "\" must be an integer"};
  const auto v = it->get<std::int64_t>();
  if (v < lo || v > hi)
    throw Refusal{400, std::string("\"") + name + "\" must be between " + std::to_string(lo) +
                           " and " + std::to_string(hi)};
  return v;
}

}  // namespace

// The set's folder, absolute, without a trailing separator.
fs::path set_folder(const fs::path& data) {
  fs::path folder = fs::absolute(data).lexically_normal();
  return folder.has_filename() ? folder : folder.parent_path();
}

fs::path default_database(const fs::path& data) {
  const fs::path folder = set_folder(data);
  return folder.parent_path() / (folder.filename().string() + ".study.sqlite");
}

std::string study_description(const ServeOptions& o) {
  return "data=" + set_folder(o.data).string() + "; split=" + o.study.split +
         "; per_config=" + std::to_string(o.study.per_config) +
         "; practice_split=" + o.study.practice_split +
         "; practice=" + std::to_string(o.study.practice) +
         "; seed=" + std::to_string(o.study.seed);
}

struct Server::State {
  ServeOptions o;
  StudySet set;
  std::vector<StudyProblem> problems;  // practice, then test: the n of /images/<n>/
  std::unordered_map<std::string, int> number_of;
  std::vector<int> grid, context;
  std::vector<std::map<std::string, std::string>> panels;  // "context-1" -> PNG bytes
  std::unique_ptr<Store> store;
  std::mutex enrol;  // participant numbers (and so their orders) are handed out one at a time
  httplib::Server http;

  explicit State(const ServeOptions& options) : o(options) {
    if (o.db.empty()) o.db = default_database(o.data);
    load();
    store = std::make_unique<Store>(o.db, description());
    routes();
  }

  std::string description() const { return study_description(o); }

  // Reads the set once: every item for the draw, the problems of the two splits for the panels.
  void load() {
    std::vector<evaluation::Item> items;
    std::unordered_map<std::string, engine::Problem> kept;
    const auto wanted = [&](const std::string& split) {
      return o.study.split.empty() || o.study.practice_split.empty() || split == o.study.split ||
             split == o.study.practice_split;
    };
    evaluation::for_each_item(o.data, o.threads,
                              [&](const evaluation::Item& item, const engine::Problem& p) {
                                items.push_back(item);
                                if (wanted(item.split)) kept.emplace(item.id, p);
                              });
    set = choose_problems(items, o.study);
    problems = set.practice;
    problems.insert(problems.end(), set.test.begin(), set.test.end());
    for (int n = 0; n < static_cast<int>(problems.size()); ++n) render(n, kept.at(problems[n].id));
  }

  void render(int n, const engine::Problem& problem) {
    number_of[problems[static_cast<std::size_t>(n)].id] = n;
    const auto entry = evaluation::vlm_entry({.id = std::to_string(n)}, problem, {.panels = true});
    std::map<std::string, std::string> files;
    const std::string prefix = std::to_string(n) + "/";
    for (const auto& f : entry.files)
      if (f.path.starts_with(prefix))  // the panels; the first file is the whole sheet
        files[f.path.substr(prefix.size(), f.path.size() - prefix.size() - 4)] = f.bytes;
    panels.push_back(std::move(files));
    grid.push_back(problem.grid());
    context.push_back(static_cast<int>(problem.context.size()));
  }

  Participant participant(const httplib::Request& req) const {
    const std::string token = req.get_header_value("X-Rave-Token");
    if (token.empty()) throw Refusal{403, "no participant token (X-Rave-Token)"};
    auto p = store->find(token);
    if (!p) throw Refusal{403, "unknown participant token"};
    return *p;
  }

  int next_position(const Participant& p) const {
    return static_cast<int>(store->answers(p.id).size());
  }

  Json state_of(const Participant& p) const {
    const int next = next_position(p);
    return {{"participant", p.id},
            {"position", next},
            {"practice", p.practice},
            {"problems", p.sequence.size()},
            {"done", next >= static_cast<int>(p.sequence.size())}};
  }

  Json problem_json(const Participant& p, int position) const {
    const int n = number_of.at(p.sequence[static_cast<std::size_t>(position)]);
    Json context_urls = Json::array(), candidate_urls = Json::array();
    const std::string base = "/images/" + std::to_string(n) + "/";
    for (int k = 1; k <= context[static_cast<std::size_t>(n)]; ++k)
      context_urls.push_back(base + "context-" + std::to_string(k) + ".png");
    for (int k = 1; k <= engine::kCandidates; ++k)
      candidate_urls.push_back(base + "candidate-" + std::to_string(k) + ".png");
    return {{"position", position},
            {"practice", position < p.practice},
            {"grid", grid[static_cast<std::size_t>(n)]},
            {"context", context_urls},
            {"candidates", candidate_urls}};
  }

  Json answer(const Participant& p, const Json& body) {
    const int position = static_cast<int>(
        integer_field(body, "position", 0, static_cast<std::int64_t>(p.sequence.size()) - 1));
    const int label = static_cast<int>(integer_field(body, "answer", 1, engine::kCandidates));
    const std::int64_t ms = integer_field(body, "milliseconds", 0, kMaxMilliseconds);
    const int next = next_position(p);
    if (position < next)
      throw Refusal{409, "position " + std::to_string(position) + " is answered already"};
    if (position > next)
      throw Refusal{409, "position " + std::to_string(position) + " is not the next one (" +
                             std::to_string(next) + ")"};
    const StudyProblem& problem = problems[static_cast<std::size_t>(
        number_of.at(p.sequence[static_cast<std::size_t>(position)]))];
    const Answer a{.participant = p.id,
                   .position = position,
                   .problem = problem.id,
                   .answer = label - 1,
                   .correct = label - 1 == problem.answer,
                   .practice = position < p.practice,
                   .milliseconds = ms};
    if (store->save_answer(a) == Saved::kAlreadyAnswered)
      throw Refusal{409, "position " + std::to_string(position) + " is answered already"};
    Json out = {{"next", position + 1},
                {"done", position + 1 >= static_cast<int>(p.sequence.size())}};
    if (a.practice) {  // feedback, as in the paper's practice trials
      out["correct"] = a.correct;
      out["answer"] = evaluation::candidate_label(problem.answer);
    }
    return out;
  }

  // Runs a handler, turning a Refusal into its JSON error.
  template <typename F>
  auto guarded(F f) {
    return [f](const httplib::Request& req, httplib::Response& res) {
      try {
        f(req, res);
      } catch (const Refusal& r) {
        reply(res, r.status, {{"error", r.message}});
      } catch (const std::exception& e) {
        reply(res, 500, {{"error", e.what()}});
      }
    };
  }

  void routes() {
    http.Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(page_html()), "text/html; charset=utf-8");
    });
    http.Post("/api/participants",
              guarded([this](const httplib::Request& req, httplib::Response& res) {
                const Json body = parse_body(req);
                const auto name = body.value("name", std::string());
                if (name.size() > 200) throw Refusal{400, "\"name\" is longer than 200 characters"};
                const std::lock_guard lock(enrol);
                const auto n = static_cast<std::int64_t>(store->participants().size()) + 1;
                std::vector<std::string> sequence = participant_sequence(set, o.study.seed, n);
                const Participant p = store->add_participant(name, new_token(), sequence,
                                                             static_cast<int>(set.practice.size()));
                reply(res, 200,
                      {{"token", p.token},
                       {"participant", p.id},
                       {"practice", p.practice},
                       {"problems", p.sequence.size()}});
              }));
    http.Get("/api/state", guarded([this](const httplib::Request& req, httplib::Response& res) {
               reply(res, 200, state_of(participant(req)));
             }));
    http.Get(R"(/api/problems/(\d+))",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               const Participant p = participant(req);
               const int position = std::stoi(req.matches[1].str());
               if (position >= static_cast<int>(p.sequence.size()))
                 throw Refusal{404, "no problem at position " + std::to_string(position)};
               reply(res, 200, problem_json(p, position));
             }));
    http.Post("/api/answers", guarded([this](const httplib::Request& req, httplib::Response& res) {
                const Participant p = participant(req);
                reply(res, 200, answer(p, parse_body(req)));
              }));
    http.Get(R"(/images/(\d+)/((context|candidate)-\d+)\.png)",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               const auto n = std::stoul(req.matches[1].str());
               const auto it =
                   n < panels.size() ? panels[n].find(req.matches[2].str()) : panels.front().end();
               if (n >= panels.size() || it == panels[n].end()) throw Refusal{404, "no such image"};
               res.set_content(it->second, "image/png");
             }));
  }
};

Server::Server(const ServeOptions& options) : state_(std::make_unique<State>(options)) {}
Server::~Server() = default;

int Server::bind() {
  auto& s = *state_;
  const int port = s.o.port == 0 ? s.http.bind_to_any_port(s.o.host)
                                 : (s.http.bind_to_port(s.o.host, s.o.port) ? s.o.port : -1);
  if (port < 0)
    throw InputError(s.o.host + ":" + std::to_string(s.o.port), "",
                     "cannot listen there (in use, or not an address of this machine)");
  return port;
}

void Server::run() { state_->http.listen_after_bind(); }
void Server::stop() { state_->http.stop(); }
std::size_t Server::practice_count() const { return state_->set.practice.size(); }
std::size_t Server::test_count() const { return state_->set.test.size(); }
const fs::path& Server::database() const { return state_->o.db; }

}  // namespace rave::study
