// The plain driver the normal suite builds each fuzz target with (no
// libFuzzer, any compiler): every file named, or found below a directory
// named, is given to LLVMFuzzerTestOneInput once. A crash, an abort or an
// escaping exception fails the test; otherwise it prints how many ran.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file() && e.path().filename() != "README.md") inputs.push_back(e.path());
    } else if (fs::exists(argv[i], ec)) {
      inputs.push_back(argv[i]);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs: give corpus directories or files\n");
    return 2;
  }
  for (auto& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%zu inputs ran\n", inputs.size());
  return 0;
}
