#include "evaluation/scoring/reply.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace rave::evaluation {
namespace {

// One token of a reply: a word (letters, lower-cased), a run of digits, or one other character.
struct Token {
  enum Kind { kWord, kNumber, kMark } kind;
  std::string text;    // lower-cased for words; the character for marks
  bool upper = false;  // a one-letter word written in capitals
  bool whole = true;   // a number not part of a decimal, an exponent or an ordinal ("4.5", "4th")
};

bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The reply without markdown emphasis and TeX: `\boxed{X}` becomes "answer X".
std::string plain(std::string_view reply) {
  std::string out;
  for (std::size_t i = 0; i < reply.size(); ++i) {
    if (reply.compare(i, 7, "\\boxed{") == 0) {
      out += " answer ";
      i += 6;
      continue;
    }
    const char c = reply[i];
    if (c == '*' || c == '_' || c == '`' || c == '$' || c == '~' || c == '\\') continue;
    out += c;
  }
  return out;
}

// A number that touches a letter or a decimal point followed by a digit is no whole number.
bool whole_number(std::string_view text, std::size_t begin, std::size_t end) {
  if (begin > 0 &&
      (letter(text[begin - 1]) || (text[begin - 1] == '.' && begin > 1 && digit(text[begin - 2]))))
    return false;
  if (end < text.size() && letter(text[end])) return false;
  return !(end + 1 < text.size() && (text[end] == '.' || text[end] == ',') && digit(text[end + 1]));
}

// The word (lower-cased; `upper` for a one-letter capital) or number text[i, j) as a token.
Token word_or_number(std::string_view text, std::size_t i, std::size_t j) {
  const bool word = letter(text[i]);
  Token t{word ? Token::kWord : Token::kNumber, std::string(text.substr(i, j - i))};
  if (!word) {
    t.whole = whole_number(text, i, j);
    return t;
  }
  t.upper = j - i == 1 && std::isupper(static_cast<unsigned char>(text[i]));
  for (char& c : t.text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return t;
}

std::vector<Token> tokens(std::string_view text) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    if (space(text[i])) {
      ++i;
      continue;
    }
    if (letter(text[i]) || digit(text[i])) {
      const bool word = letter(text[i]);
      while (j < text.size() && (word ? letter(text[j]) : digit(text[j]))) ++j;
      out.push_back(word_or_number(text, i, j));
    } else {
      out.push_back({Token::kMark, std::string(1, text[i])});
      j = i + 1;
    }
    i = j;
  }
  return out;
}

// The 0-based candidate a token labels, or -1.
int label_of(const Token& t, ReplyLabels labels, int candidates) {
  if (labels == ReplyLabels::kLetters) {
    if (t.kind != Token::kWord || t.text.size() != 1) return -1;
    const int k = t.text[0] - 'a';
    return k < candidates ? k : -1;
  }
  if (t.kind != Token::kNumber || !t.whole || t.text.size() > 3) return -1;
  const int k = std::stoi(t.text) - (labels == ReplyLabels::kIndices ? 0 : 1);
  return k >= 0 && k < candidates ? k : -1;
}

bool one_of(const std::string& word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

bool answer_word(const Token& t) { return t.kind == Token::kWord && t.text == "answer"; }
bool choice_word(const Token& t) {
  return t.kind == Token::kWord && one_of(t.text, {"candidate", "option", "choice"});
}

// A token that may stand between a marker word and its label ("answer would be: #4").
bool filler(const Token& t) {
  if (t.kind == Token::kMark) return one_of(t.text, {":", "#", "(", "[", "=", "-", "\"", "'"});
  return t.kind == Token::kWord &&
         (answer_word(t) || choice_word(t) ||
          one_of(t.text, {"is", "would", "be", "should", "must", "will", "the", "final", "correct",
                          "right", "best", "my", "it", "s", "number", "no"}));
}

constexpr std::size_t kFillers = 4;  // at most this many tokens between a marker and its label

bool word_at(const std::vector<Token>& ts, std::size_t j) {
  return j < ts.size() && ts[j].kind == Token::kWord;
}

// The position of the label within kFillers fillers after tokens[at], or npos.
std::size_t label_position(const std::vector<Token>& ts, std::size_t at, ReplyLabels labels,
                           int n) {
  for (std::size_t j = at + 1; j < ts.size() && j <= at + 1 + kFillers; ++j) {
    if (label_of(ts[j], labels, n) >= 0) return j;
    if (!filler(ts[j])) return std::string::npos;
  }
  return std::string::npos;
}

bool or_at(const std::vector<Token>& ts, std::size_t j) {
  return word_at(ts, j) && ts[j].text == "or";
}

// The label within kFillers fillers after the marker tokens[at], or -1; also -1 for a hedge ("4 or
// 5", "Answer #3 or Answer #5": a label after "or" and fillers, or a label and "or" before the
// marker) and, with letters, for the article ("the answer is a circle").
int label_after(const std::vector<Token>& ts, std::size_t at, ReplyLabels labels, int n) {
  const std::size_t j = label_position(ts, at, labels, n);
  if (j == std::string::npos) return -1;
  const int k = label_of(ts[j], labels, n);
  if (labels == ReplyLabels::kLetters && k == 0 && !ts[j].upper && word_at(ts, j + 1)) return -1;
  const bool hedge_after =
      or_at(ts, j + 1) && label_position(ts, j + 1, labels, n) != std::string::npos;
  const bool hedge_before = at >= 2 && or_at(ts, at - 1) && label_of(ts[at - 2], labels, n) >= 0;
  return hedge_after || hedge_before ? -1 : k;
}

// Whether tokens after `at` say "is the (correct) answer" (or "is correct").
bool named_answer_after(const std::vector<Token>& ts, std::size_t at) {
  std::size_t j = at + 1;
  const auto word = [&](std::initializer_list<std::string_view> w) {
    return j < ts.size() && ts[j].kind == Token::kWord && one_of(ts[j].text, w);
  };
  if (!word({"is"})) return false;
  ++j;
  if (word({"the"})) ++j;
  bool named = false;
  if (word({"correct", "right", "final", "best"})) ++j, named = true;
  return word({"answer"}) || named;
}

// Rule 1: the last label marked by "answer" (or, when none is, by "candidate", "option", ...).
int marked_label(const std::vector<Token>& ts, ReplyLabels labels, int n) {
  int answer = -1, choice = -1;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (answer_word(ts[i]) || choice_word(ts[i])) {
      const int k = label_after(ts, i, labels, n);
      if (k >= 0) (answer_word(ts[i]) ? answer : choice) = k;
    }
    if (const int k = label_of(ts[i], labels, n); k >= 0 && named_answer_after(ts, i)) answer = k;
  }
  return answer >= 0 ? answer : choice;
}

// Rule 2: the reply is one label, less enclosing punctuation.
int bare_label(const std::vector<Token>& ts, ReplyLabels labels, int n) {
  std::vector<const Token*> kept;
  for (const Token& t : ts)
    if (t.kind != Token::kMark || !one_of(t.text, {"(", ")", "[", "]", ".", ":", "!", "\"", "'"}))
      kept.push_back(&t);
  if (kept.size() != 1) return -1;
  if (labels != ReplyLabels::kLetters && kept[0]->kind == Token::kWord) {
    static constexpr std::array<std::string_view, 9> kWords = {
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight"};
    const auto it = std::find(kWords.begin(), kWords.end(), kept[0]->text);
    const int k = static_cast<int>(it - kWords.begin()) - (labels == ReplyLabels::kIndices ? 0 : 1);
    return it != kWords.end() && k >= 0 && k < n ? k : -1;
  }
  return label_of(*kept[0], labels, n);
}

// Rule 3 with letters: the reply opens "(C)", "C)", "C." or "C:" before its text; or its only
// capital letters A..H (less the article "A word") are one and the same.
int letter_label(const std::vector<Token>& ts, int n) {
  const auto mark = [&](std::size_t j, std::initializer_list<std::string_view> m) {
    return j < ts.size() && ts[j].kind == Token::kMark && one_of(ts[j].text, m);
  };
  const std::size_t first = mark(0, {"("}) ? 1 : 0;
  if (first < ts.size() && ts[first].upper && mark(first + 1, {")", ".", ":"}))
    return label_of(ts[first], ReplyLabels::kLetters, n);
  int found = -1;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const int k = ts[i].upper ? label_of(ts[i], ReplyLabels::kLetters, n) : -1;
    const bool article = k == 0 && word_at(ts, i + 1);
    if (k < 0 || article) continue;
    if (found >= 0 && found != k) return -1;
    found = k;
  }
  return found;
}

// Rule 3 with numbers: every number in the reply is the same label, never negated ("not 3").
int only_number(const std::vector<Token>& ts, ReplyLabels labels, int n) {
  int found = -1;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].kind != Token::kNumber) continue;
    const int k = label_of(ts[i], labels, n);
    const bool negated = i > 0 && word_at(ts, i - 1) && one_of(ts[i - 1].text, {"not", "t"});
    if (k < 0 || negated || (found >= 0 && found != k)) return -1;
    found = k;
  }
  return found;
}

}  // namespace

std::optional<int> read_reply(std::string_view reply, ReplyLabels labels, int candidates) {
  const std::string text = plain(reply);
  const std::vector<Token> ts = tokens(text);
  int k = marked_label(ts, labels, candidates);
  if (k < 0) k = bare_label(ts, labels, candidates);
  if (k < 0)
    k = labels == ReplyLabels::kLetters ? letter_label(ts, candidates)
                                        : only_number(ts, labels, candidates);
  return k >= 0 ? std::optional<int>(k) : std::nullopt;
}

std::optional<int> read_replies(const std::vector<std::string>& replies, ReplyLabels labels,
                                int candidates) {
  std::map<int, int> votes;
  for (const auto& r : replies)
    if (const auto k = read_reply(r, labels, candidates)) ++votes[*k];
  if (votes.empty()) return std::nullopt;
  return std::max_element(votes.begin(), votes.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;  // the first of the most frequent: the smallest candidate on a tie
}

}  // namespace rave::evaluation
