#pragma once
// The generator a dataset's rave.json records, replayed for every problem (`rave check`,
// docs/dataset.md#checking-a-dataset): problem k of a configuration is drawn again from the
// manifest's seed, answer strategy, variant and redraws, and its XML and npz written again must be
// the files found, byte for byte (a compressed npz: the same members in the same order with the
// same arrays, so no deflate is redone). The drawing is shared with the content check: the replay
// compares against the pixels already rendered from the XML, which are the replay's own when the
// XML is. A dataset made by another rave version is replayed all the same; a difference then says
// so, since the generator itself may have changed. One made by an older rave whose variant a
// recorded change of the generator touches (jobs/generator_history.hpp) is not replayed: of()
// names the change.
//
//   std::string why;
//   std::optional<Replay> replay = Replay::of(manifest, why);   // nullopt: why says what stops it
//   std::optional<std::string> d = replay->defect("center_single/RAVEN_3_train", pair);  // "": equal
#include <optional>
#include <string>

#include "engine/answers/answer_set.hpp"
#include "engine/model/variant.hpp"
#include "jobs/dataset_manifest.hpp"
#include "jobs/problem_content.hpp"

namespace rave::jobs {

/// A manifest's generator, ready to make any of its problems again (thread-safe; the manifest
/// must outlive it).
class Replay {
 public:
  /// The replay of `manifest`, or nullopt with `why` set when its parameters name no generator
  /// (an unknown answer strategy, a variant out of range: defects the manifest audit reports) or
  /// an older rave made its problems and this one makes them differently.
  static std::optional<Replay> of(const DatasetManifest& manifest, std::string& why);
  /// Whether the manifest was written by this rave (else a difference may be the version's).
  bool same_version() const { return same_version_; }
  /// What differs between the problem at `stem` (relative to the root, "center_single/RAVEN_3_train")
  /// read as `pair` and the same problem made again ("" when nothing does); nullopt when it was not
  /// made again: `stem` lies outside the dataset's layout, or its npz is missing (the manifest
  /// audit and the content check report those).
  std::optional<std::string> defect(const std::string& stem, const ProblemPair& pair) const;

 private:
  Replay(const DatasetManifest& manifest, engine::AnswerStrategy strategy, engine::Variant variant);

  const DatasetManifest* manifest_;
  engine::AnswerStrategy strategy_;
  engine::Variant variant_;
  engine::RenderStyle style_{};  ///< rave.json's style (the original when it names none)
  bool same_version_;
};

}  // namespace rave::jobs
