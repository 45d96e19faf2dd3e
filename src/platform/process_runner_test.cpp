#include "platform/process_runner.h"

#include "catch.h"

using namespace rocmdoc;
using namespace std::chrono_literals;

TEST_CASE("a tool runs from an argv with both streams captured and its exit code", "[process]") {
  SystemProcessRunner runner;
  ProcessResult r = runner.run({"sh", "-c", "echo out; echo err >&2; exit 3"}, 5s);
  CHECK(r.started);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.error.empty());
}

TEST_CASE("a tool that is not there did not start, and says why", "[process]") {
  SystemProcessRunner runner;
  ProcessResult r = runner.run({"rocmdoc-no-such-tool-here"}, 5s);
  CHECK_FALSE(r.started);
  CHECK(r.error == "rocmdoc-no-such-tool-here: No such file or directory");
  ProcessResult empty = runner.run({}, 5s);
  CHECK_FALSE(empty.started);
}

TEST_CASE("a tool reads /dev/null as stdin unless asked to inherit it", "[process]") {
  SystemProcessRunner runner;
  ProcessResult r = runner.run({"cat"}, 5s);
  CHECK(r.succeeded());
  INFO("out: " << r.out.substr(0, 300));
  CHECK(r.out.empty());
}

TEST_CASE("a timeout kills the tool and the children it started", "[process]") {
  SystemProcessRunner runner;
  auto started = std::chrono::steady_clock::now();
  // The grandchild keeps the pipe open: only killing the group ends it.
  ProcessResult r = runner.run({"sh", "-c", "sleep 30 & sleep 30"}, 200ms);
  CHECK(r.timed_out);
  CHECK(r.error.find("timed out after 200 ms") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - started < 10s);
}

TEST_CASE("a heartbeat reaches the sink while a command is silent, and never without one asked", "[process]") {
  size_t beats = 0;
  std::string out;
  StreamOptions options;
  options.heartbeat = 100ms;
  auto r = stream_process({"sh", "-c", "sleep 0.6; echo late"}, options, [&](int stream, std::string_view data) {
    if (stream == 0) {
      CHECK(data.empty());
      ++beats;
    } else {
      out.append(data);
    }
  });
  CHECK(r.succeeded());
  CHECK(out == "late\n");
  CHECK(beats >= 3);
  CHECK(beats <= 50);  // a wait between beats, not a busy loop
  // Without one: only output.
  beats = 0;
  auto quiet = stream_process({"sh", "-c", "sleep 0.3"}, {}, [&](int stream, std::string_view) { beats += stream == 0; });
  CHECK(quiet.succeeded());
  CHECK(beats == 0);
}
