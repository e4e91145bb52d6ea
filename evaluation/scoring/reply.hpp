#pragma once
// A model's free-text reply read as the candidate it names, in the labelling its prompt asked for
// (docs/evaluation.md#free-text-replies): rave's image prompts ask for a label 1..8, the harness
// forms for an option letter A..H, IBM's text prompts number the candidates "Answer #0".."Answer
// #7" (the RL environment's text form, evaluation/export/gym.hpp, reads those). One documented rule decides which label counts when a reply
// holds several, and a reply it cannot read is nullopt, never a guess:
//  1. the last *marked* label: "answer" (and "candidate", "option", "choice") followed, within a
//     few filler words ("is", "would be", "the final", ":", "#", "(", ...), by a label; a label
//     followed by "is the (correct) answer"; `\boxed{X}`;
//  2. else the whole reply, less spaces, markdown and enclosing punctuation, is one label
//     ("4", "**4**", "(C)", "C.");
//  3. else, with letters, a reply that opens with "(C)", "C)" or "C." before its text; with
//     numbers, every number in the reply is one and the same label ("I would pick 4.");
//  4. else unreadable (a refusal, "2 or 5", "row 1 has 3 shapes" with no answer named).
// Letters are read in either case; a number is a label only when whole (4.5 and 1e3 are not).
//
//   read_reply("Row 1 has 3 circles, so the answer is **4**.", ReplyLabels::kNumbers, 8)  // 3
//   read_reply("(C) because ...", ReplyLabels::kLetters, 8)                              // 2
//   read_reply("I cannot see the image.", ReplyLabels::kNumbers, 8)                     // nullopt
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rave::evaluation {

/// How the prompt labelled the candidates.
enum class ReplyLabels {
  kNumbers,  ///< 1..n (rave's sheets and panels, as people count)
  kLetters,  ///< A..H (the harness forms' options)
  kIndices,  ///< 0..n-1 (IBM's and lm-raven's "Answer #k" numbering of the text prompts)
};

/// The 0-based candidate a reply names by the rule above, or nullopt when it names none.
std::optional<int> read_reply(std::string_view reply, ReplyLabels labels, int candidates);

/// The candidate several samples of one reply name: the most frequent readable one, the smallest
/// on a tie (IBM's majority vote); nullopt when no sample is readable.
std::optional<int> read_replies(const std::vector<std::string>& replies, ReplyLabels labels,
                                int candidates);

}  // namespace rave::evaluation
