// npz files: every reference problem re-encoded (XML -> render -> npz) byte for byte and read back,
// round trips, truncated and corrupt input, and numpy itself loading what we write.
#include "engine/formats/npz.hpp"
#include "engine/render/render.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/formats/zip.hpp"
#include "engine/model/structure.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

// Every reference problem re-encoded from its XML and the manifest's fields (XML -> render -> npz)
// has the original npz's sha256; the bytes then are the original file, which is decoded back.
void expect_reencoded(std::string_view set) {
  int files = 0, identical = 0;
  for (const auto& ref : ::rave::testing::reference_problems(set)) {
    const Problem problem = testing::read_reference_problem(ref);
    const auto images = render_problem(problem);
    NpzContents contents = npz_contents(problem, images);
    contents.predict_as_vector = ref.predict_as_vector;
    const std::string got = encode_npz(contents, ref.compressed);
    EXPECT_EQ(got.size(), ref.npz_bytes) << ref.xml;
    const bool same = ::rave::testing::sha256_hex(got) == ref.npz_sha256;
    EXPECT_TRUE(same) << ref.xml << ": the re-encoded npz differs from the original";
    std::string direct = "stale bytes";  // the panel-by-panel path into a reused buffer
    encode_problem_npz(direct, problem, images, ref.compressed, ref.predict_as_vector);
    EXPECT_TRUE(direct == got) << ref.xml;
    const NpzFile original = parse_npz(got, ref.xml.filename().replace_extension(".npz").string());
    EXPECT_EQ(original.contents(), contents) << ref.xml;
    EXPECT_EQ(original.array("predict").shape.size(), ref.predict_as_vector ? 1u : 0u) << ref.xml;
    files += 1, identical += same && direct == got;
  }
  std::cout << set << " reference: " << identical << " of " << files
            << " npz files byte-identical\n";
}

TEST(NpzConformance, RavenReferenceReencodesByteForByte) { expect_reencoded("raven"); }
TEST(NpzConformance, IRavenReferenceReencodesByteForByte) { expect_reencoded("iraven"); }
TEST(NpzConformance, FairReferenceReencodesCompressedByteForByte) { expect_reencoded("fair"); }

NpzContents sample_contents() {
  NpzContents c;
  Rng rng(5);
  c.image.resize(16 * 160 * 160);
  for (auto& v : c.image) v = static_cast<std::uint8_t>(rng.below(3) == 0 ? rng.below(256) : 255);
  c.target = 5;
  c.predict = 3;
  c.meta_matrix[2][7] = 1;
  c.meta_target[7] = 1;
  c.structure = structure_tokens(ConfigId::kOutInGrid);
  c.meta_structure = meta_structure(ConfigId::kOutInGrid);
  return c;
}

TEST(Npz, RoundTripsStoredAndCompressed) {
  for (bool compress : {false, true})
    for (bool vector_predict : {false, true}) {
      NpzContents c = sample_contents();
      c.predict_as_vector = vector_predict;
      const NpzFile f = parse_npz(encode_npz(c, compress), "mem.npz");
      EXPECT_EQ(f.keys(), (std::vector<std::string>{"image", "target", "predict", "meta_matrix",
                                                    "meta_target", "structure", "meta_structure"}));
      EXPECT_EQ(f.contents(), c);
      EXPECT_EQ(f.array("structure").descr, "<U18");  // In_Distribute_Four
    }
}

TEST(Npz, ReadsPython2BytesStructure) {
  // A |S13 structure member, as the Python 2 original wrote it.
  const std::vector<std::size_t> shape{2};
  const std::string header = npy_header("|S13", shape);
  const std::string payload = std::string("Scene") + std::string(8, '\0') + "Center_Single";
  const ZipSource member{"structure.npy", {header, payload}};
  const NpzFile f = parse_npz(write_zip(std::span(&member, 1), false), "py2.npz");
  EXPECT_EQ(f.structure(), (std::vector<std::string>{"Scene", "Center_Single"}));
  EXPECT_THROW(f.image(), InputError);
}

TEST(Npz, EveryTruncationThrowsInputError) {
  for (bool compress : {false, true}) {
    const std::string bytes = encode_npz(sample_contents(), compress);
    for (std::size_t n = 0; n < bytes.size();
         n += (n < 2000 || n + 2000 > bytes.size()) ? 1 : 997) {
      try {
        parse_npz(std::string_view(bytes).substr(0, n), "cut.npz");
        ADD_FAILURE() << "no error at length " << n;
      } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "cut.npz");
        EXPECT_FALSE(e.place().empty()) << n;
      }
    }
  }
}

TEST(Npz, CorruptBytesNeverCrashAndAreCaughtByCrcOrStructure) {
  Rng rng(17);
  for (bool compress : {false, true}) {
    const std::string bytes = encode_npz(sample_contents(), compress);
    int errors = 0;
    for (int trial = 0; trial < 100; ++trial) {
      std::string bad = bytes;
      const auto at = static_cast<std::size_t>(rng.below(static_cast<int>(bad.size())));
      bad[at] = static_cast<char>(bad[at] ^ (1 + rng.below(255)));
      try {
        parse_npz(bad, "bad.npz").contents();
      } catch (const InputError&) {
        ++errors;
      }
    }
    EXPECT_GT(errors, 80);  // only a few header bytes (times, versions, attributes) are unchecked
  }
  EXPECT_THROW(parse_npz("definitely not a zip file at all", "x.npz"), InputError);
}

TEST(Npz, MissingMemberNamesIt) {
  const std::vector<std::size_t> scalar;
  const std::string header = npy_header("<i8", scalar), zero(8, '\0');
  const ZipSource member{"target.npy", {header, zero}};
  const NpzFile f = parse_npz(write_zip(std::span(&member, 1), false), "one.npz");
  EXPECT_EQ(f.target(), 0);
  try {
    f.predict();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.place(), "predict.npy");
  }
}

// An npz with `key` replaced by an int64 scalar `value` (target, predict) or uint8 array (meta_*).
std::string npz_with(const std::string& key, const std::string& header,
                     const std::string& payload) {
  std::vector<ZipMember> members = read_zip(encode_npz(sample_contents(), false), "s.npz");
  std::vector<ZipSource> sources;
  for (auto& m : members) {
    if (m.name == key + ".npy") m.data = header + payload;
    sources.push_back({m.name, {m.data}});
  }
  return write_zip(sources, false);
}

std::string int64_payload(std::int64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[static_cast<std::size_t>(i)] =
        static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF);
  return out;
}

std::string npz_error(const std::string& bytes, const std::function<void(const NpzFile&)>& use) {
  try {
    use(parse_npz(bytes, "r.npz"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NpzRanges, CandidateIndicesAreZeroToSeven) {
  const std::vector<std::size_t> scalar, one{1};
  const auto target = [](const NpzFile& f) { f.target(); };
  const auto predict = [](const NpzFile& f) { f.predict(); };
  EXPECT_EQ(npz_error(npz_with("target", npy_header("<i8", scalar), int64_payload(7)), target), "");
  EXPECT_EQ(npz_error(npz_with("target", npy_header("<i8", scalar), int64_payload(99)), target),
            "r.npz:target.npy: target 99 is not a candidate index 0..7");
  EXPECT_EQ(npz_error(npz_with("target", npy_header("<i8", scalar), int64_payload(-1)), target),
            "r.npz:target.npy: target -1 is not a candidate index 0..7");
  EXPECT_EQ(npz_error(npz_with("predict", npy_header("<i8", one),
                               int64_payload((std::int64_t{1} << 40) + 3)),
                      predict),
            "r.npz:predict.npy: predict 1099511627779 is not a candidate index 0..7");
}

TEST(NpzRanges, MetaArraysHoldBits) {
  const std::vector<std::size_t> nine{9};
  std::string bits(9, '\0');
  bits[4] = 2;
  EXPECT_EQ(npz_error(npz_with("meta_target", npy_header("|u1", nine), bits),
                      [](const NpzFile& f) { f.meta_target(); }),
            "r.npz:meta_target.npy: meta_target holds 2 at index 4; its values are bits (0 or 1)");
  EXPECT_EQ(npz_error(encode_npz(sample_contents(), false), [](const NpzFile& f) { f.contents(); }),
            "");
}

TEST(Npz, SelectiveReadSkipsOtherMembers) {
  for (bool compress : {false, true}) {
    std::string bytes = encode_npz(sample_contents(), compress);
    bytes[2000] ^=
        0x55;  // inside image.npy (stored payload or deflate stream): the member is now corrupt
    EXPECT_THROW(parse_npz(bytes, "c.npz"), InputError);
    const NpzFile f = parse_npz(bytes, "c.npz", {"target", "predict"});
    EXPECT_EQ(f.keys(), (std::vector<std::string>{"target", "predict"}));
    EXPECT_EQ(f.target(), 5);
    EXPECT_EQ(f.predict(), 3);
    EXPECT_THROW(f.image(), InputError);
  }
}

// From a file: the last bytes are read when they hold the wanted members, the whole file otherwise
// (a writer that put the image last); both give the same values.
TEST(Npz, SelectiveFileReadEitherMemberOrder) {
  const auto dir = ::rave::testing::scratch_dir("npz-tail");
  const NpzContents c = sample_contents();
  const std::vector<std::size_t> scalar;
  const std::string header = npy_header("<i8", scalar);
  std::string target(8, '\0'), predict(8, '\0');
  target[0] = static_cast<char>(c.target), predict[0] = static_cast<char>(c.predict);
  const std::string big(100000, 'x');
  const ZipSource image_last[] = {
      {"target.npy", {header, target}}, {"predict.npy", {header, predict}}, {"pad.npy", {big}}};
  write_file_atomic(dir / "numpy.npz", encode_npz(c, false));
  write_file_atomic(dir / "other.npz", write_zip(image_last, false));
  for (const char* name : {"numpy.npz", "other.npz"}) {
    const NpzFile f = read_npz(dir / name, {"target", "predict"});
    EXPECT_EQ(f.target(), c.target) << name;
    EXPECT_EQ(f.predict(), c.predict) << name;
  }
}

TEST(Npy, HeaderMatchesNumpy124Layout) {
  // Headers as numpy 1.24's format.write_array wrote them (dict, growth padding, 64-byte
  // alignment).
  const std::vector<std::size_t> image{16, 160, 160}, scalar{}, tokens{8};
  auto padded = [](std::string dict) {
    return std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict +
           std::string(117 - dict.size(), ' ') + "\n";
  };
  EXPECT_EQ(npy_header("|u1", image),
            padded("{'descr': '|u1', 'fortran_order': False, 'shape': (16, 160, 160), }"));
  EXPECT_EQ(npy_header("<i8", scalar),
            padded("{'descr': '<i8', 'fortran_order': False, 'shape': (), }"));
  EXPECT_EQ(npy_header("<U13", tokens),
            padded("{'descr': '<U13', 'fortran_order': False, 'shape': (8,), }"));
}

TEST(Npy, ParsesVersion2And3HeadersAndRejectsFortranOrder) {
  for (char major : {'\x02', '\x03'}) {
    const std::string dict = "{'shape': (2, 3), 'fortran_order': False, 'descr': '|u1'}";
    const std::string len{static_cast<char>(dict.size() + 1), 0, 0, 0};
    const std::string bytes =
        std::string("\x93NUMPY", 6) + major + '\0' + len + dict + "\n" + "abcdef";
    const NpyArray a = parse_npy(bytes, "f.npz", "x.npy");
    EXPECT_EQ(a.descr, "|u1");
    EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
    EXPECT_EQ(a.data, "abcdef");
  }
  const std::vector<std::size_t> shape{6};
  std::string fortran = npy_header("|u1", shape) + "abcdef";
  fortran.replace(fortran.find("False"), 5, "True ");
  try {
    parse_npy(fortran, "f.npz", "x.npy");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "f.npz");
    EXPECT_NE(e.place().find("x.npy"), std::string::npos);
  }
  EXPECT_THROW(parse_npy(npy_header("|u1", shape) + "abc", "f.npz", "x.npy"),
               InputError);  // short payload
  const std::vector<std::size_t> huge{std::size_t{1} << 40, std::size_t{1} << 40};
  EXPECT_THROW(parse_npy(npy_header("<i8", huge), "f.npz", "x.npy"), InputError);  // size overflows
}

TEST(Npz, NumpyLoadsWhatWeWrite) {
  const auto python = ::rave::testing::python_with_numpy();
  ASSERT_TRUE(python) << "no Python with numpy (scripts/setup.sh makes .venv; or set RAVE_PYTHON)";
  const auto dir = ::rave::testing::scratch_dir("npz");
  for (bool compress : {false, true}) {
    const auto path = dir / (compress ? "c.npz" : "s.npz");
    write_file_atomic(path, encode_npz(sample_contents(), compress));
    const std::string script =
        "import numpy as np, sys\n"
        "z = np.load(sys.argv[1])\n"
        "print(' '.join(f'{k}:{z[k].dtype.str}:{z[k].shape}'.replace(' ', '') for k in z.files))\n"
        "print(int(z['target']), int(z['predict']), int(z['image'][3, 10, 20]), "
        "int(z['meta_matrix'][2, 7]),"
        " '/'.join(z['structure']))\n";
    const auto script_path = dir / "check.py";
    write_file_atomic(script_path, script);
    const std::string command = *python + " " + script_path.string() + " " + path.string();
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    ASSERT_EQ(::pclose(pipe), 0) << output;
    const NpzContents c = sample_contents();
    std::string joined;
    for (const auto& t : c.structure) joined += (joined.empty() ? "" : "/") + t;
    EXPECT_EQ(output,
              "image:|u1:(16,160,160) target:<i8:() predict:<i8:() meta_matrix:|u1:(8,9) "
              "meta_target:|u1:(9,) "
              "structure:<U18:(12,) meta_structure:|u1:(21,)\n5 3 " +
                  std::to_string(c.image[3 * 25600 + 10 * 160 + 20]) + " 1 " + joined + "\n");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace rave::engine
