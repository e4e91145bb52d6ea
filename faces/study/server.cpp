#include "study/server.hpp"

#include <atomic>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <unordered_map>

#include "common/error.hpp"
#include "evaluation/export/vlm.hpp"
#include "evaluation/items.hpp"
#include "jobs/dataset_manifest.hpp"
#include "study/http_server.hpp"
#include "study/page.hpp"
#include "study/request_checks.hpp"
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
  // Text from the request (a path) may not be UTF-8: replaced, never an exception.
  res.set_content(body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json");
}

Json parse_body(const httplib::Request& req) {
  Json body = Json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object())
    throw Refusal{400, "the request body is not a JSON object"};
  return body;
}

// The optional "name" of an enrolment: a string of at most kNameCharacters characters.
std::string name_field(const Json& body) {
  const auto it = body.find("name");
  if (it == body.end() || it->is_null()) return {};
  if (!it->is_string()) throw Refusal{400, "\"name\" must be a string"};
  std::string name = it->get<std::string>();
  if (utf8_characters(name) > kNameCharacters)
    throw Refusal{400,
                  "\"name\" is longer than " + std::to_string(kNameCharacters) + " characters"};
  return name;
}

// The number in a path (/api/problems/<n>, /images/<n>/): 404 when it names nothing there.
std::size_t path_number(const std::string& text, std::size_t count, const char* what) {
  const auto n = parse_count(text, count);
  if (!n || *n >= count) throw Refusal{404, std::string("no ") + what + " " + text};
  return static_cast<std::size_t>(*n);
}

// One line naming what is listening where a second server would (ServerLock's note).
std::string serve_command(const ServeOptions& o) {
  return "rave study serve " + o.data.string() + " --host " + o.host + " --port " +
         std::to_string(o.port);
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
  std::unique_ptr<ServerLock> lock;
  std::unique_ptr<Store> store;
  BoundedServer http;
  // stop() before run() has started listening would find nothing to stop (httplib ignores it):
  // run() and stop() meet through these (sequentially consistent) flags instead.
  std::atomic<bool> running{false}, stopping{false}, finished{false};

  explicit State(const ServeOptions& options) : o(options), http(options.limits) {
    if (o.db.empty()) o.db = default_database(o.data);
    refuse_unfinished();
    load();
    refuse_unwritable(o.db);
    lock = std::make_unique<ServerLock>(o.db, serve_command(o));
    store = std::make_unique<Store>(o.db, description());
    store->check_writable();
    routes();
  }

  // A set still being written (rave.json says complete: false) lacks problems, whole
  // configurations even: the study would silently differ from the set.
  void refuse_unfinished() const {
    const fs::path manifest = o.data / jobs::kManifestName;
    const auto m = jobs::read_manifest(manifest);
    if (m && !m->complete)
      throw InputError(manifest.string(), "complete",
                       "the set is unfinished (complete: false); finish it (rave generate "
                       "--resume) before a study is served from it");
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

  // The checks made before a body is read (docs/study.md#limits): the Host, the body's framing,
  // length and type, and the token of an answer. A refusal, or nullopt.
  std::optional<Refusal> check_before_body(const httplib::Request& req) const {
    if (!host_matches(req.get_header_value("Host"), req.local_addr, req.local_port, o.host))
      return Refusal{403, "the Host header (\"" + req.get_header_value("Host") +
                              "\") is not this server's address"};
    if (req.has_header("Transfer-Encoding"))
      return Refusal{411, "a body must come with a Content-Length (no Transfer-Encoding)"};
    const bool post = req.method == "POST";
    if (!post && req.method != "GET" && req.method != "HEAD")
      return Refusal{405, "the method " + req.method + " is not served here"};
    if (!req.has_header("Content-Length"))
      return post ? std::optional(Refusal{411, "a POST must have a Content-Length"}) : std::nullopt;
    const auto length = parse_count(req.get_header_value("Content-Length"), UINT64_MAX);
    if (!length) return Refusal{400, "the Content-Length is not a number"};
    if (!post)
      return *length == 0 ? std::nullopt : std::optional(Refusal{400, "only a POST has a body"});
    if (*length > kBodyLimit)
      return Refusal{413, "the body is " + std::to_string(*length) + " bytes; the limit is " +
                              std::to_string(kBodyLimit)};
    if (!is_json_type(req.get_header_value("Content-Type")))
      return Refusal{415, "the body must be JSON (Content-Type: application/json)"};
    if (req.path == "/api/answers") try {
        participant(req);
      } catch (const Refusal& r) {
        return r;
      }
    return std::nullopt;
  }

  // Runs check_before_body; a refused request is answered (and its connection closed when a body
  // follows unread). Whether it was refused.
  bool refused_before_body(const httplib::Request& req, httplib::Response& res) const {
    std::optional<Refusal> refusal;
    try {
      refusal = check_before_body(req);
    } catch (const std::exception& e) {  // the database failing under the token check
      refusal = Refusal{500, std::string("internal error: ") + e.what()};
    }
    if (!refusal) return false;
    reply(res, refusal->status, {{"error", refusal->message}});
    const bool body_follows =
        (req.method != "GET" && req.method != "HEAD") || req.has_header("Transfer-Encoding") ||
        (req.has_header("Content-Length") && req.get_header_value("Content-Length") != "0");
    if (body_follows) BoundedServer::close_after_reply();
    return true;
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
      } catch (const std::exception& e) {  // a bug: said as one, in the documented form
        reply(res, 500, {{"error", std::string("internal error: ") + e.what()}});
      }
    };
  }

  // The checks before the body (check_before_body), and httplib's own refusals (a malformed request
  // line, an unknown page) in the documented form.
  void guards() {
    http.set_expect_100_continue_handler(
        [this](const httplib::Request& req, httplib::Response& res) {
          return refused_before_body(req, res) ? res.status : 100;
        });
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return refused_before_body(req, res) ? httplib::Server::HandlerResponse::Handled
                                           : httplib::Server::HandlerResponse::Unhandled;
    });
    http.set_payload_max_length(kBodyLimit);  // checked above already; httplib's own guard
    http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;  // ours, with its message
      const std::string what = res.status == 404   ? "no such page: " + req.method + " " + req.path
                               : res.status >= 500 ? std::string("internal error")
                                                   : std::string("the request is malformed");
      reply(res, res.status, {{"error", what}});
    });
  }

  void routes() {
    guards();
    http.Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(page_html()), "text/html; charset=utf-8");
    });
    http.Post(
        "/api/participants", guarded([this](const httplib::Request& req, httplib::Response& res) {
          const std::string name = name_field(parse_body(req));
          const auto practice = static_cast<int>(set.practice.size());
          const Participant p = store->enrol(name, new_token(), practice, [&](std::int64_t n) {
            return participant_sequence(set, o.study.seed, n);
          });
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
               const auto position =
                   path_number(req.matches[1].str(), p.sequence.size(), "problem at position");
               reply(res, 200, problem_json(p, static_cast<int>(position)));
             }));
    http.Post("/api/answers", guarded([this](const httplib::Request& req, httplib::Response& res) {
                const Participant p = participant(req);
                reply(res, 200, answer(p, parse_body(req)));
              }));
    http.Get(R"(/images/(\d+)/((context|candidate)-\d+)\.png)",
             guarded([this](const httplib::Request& req, httplib::Response& res) {
               const auto n = path_number(req.matches[1].str(), panels.size(), "image of problem");
               const auto it = panels[n].find(req.matches[2].str());
               if (it == panels[n].end()) throw Refusal{404, "no such image"};
               res.set_content(it->second, "image/png");
             }));
  }
};

Server::Server(const ServeOptions& options) : state_(std::make_unique<State>(options)) {}
Server::~Server() = default;

int Server::bind() {
  auto& s = *state_;
  const int port = s.http.bind_exclusive(s.o.host, s.o.port);
  if (port < 0)
    throw InputError(s.o.host + ":" + std::to_string(s.o.port), "",
                     "cannot listen there (in use, or not an address of this machine)");
  return port;
}

void Server::run() {
  auto& s = *state_;
  s.running = true;
  if (!s.stopping) s.http.listen_after_bind();
  s.finished = true;
}

void Server::stop() {
  auto& s = *state_;
  s.stopping = true;
  if (!s.running) return;  // run() will see `stopping` and not listen
  while (!s.http.is_running() && !s.finished)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  s.http.stop();
}
std::size_t Server::practice_count() const { return state_->set.practice.size(); }
std::size_t Server::test_count() const { return state_->set.test.size(); }
const fs::path& Server::database() const { return state_->o.db; }

}  // namespace rave::study
