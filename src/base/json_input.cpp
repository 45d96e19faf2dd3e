#include "base/json_input.h"

#include <set>
#include <stdexcept>
#include <vector>

namespace rocmdoc {

namespace {

// Thrown from the parser's callback to stop it at the first problem.
struct Refused {
  std::string why;
};

}  // namespace

Result<Json> parse_json_bounded(std::string_view text, unsigned max_depth) {
  using R = Result<Json>;
  // One entry per open container: the keys an object has had so far (an
  // array's stays empty) and the key it sits under, for the message.
  struct Open {
    std::set<std::string> keys;
    std::string path;
  };
  std::vector<Open> open;
  std::string last_key;
  auto callback = [&](int depth, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start: {
        // The parser gives an opening bracket the depth outside it: the
        // top-level document opens at 0.
        if (depth >= static_cast<int>(max_depth))
          throw Refused{"nested deeper than " + std::to_string(max_depth) + " levels"};
        std::string path = open.empty() ? "" : open.back().path + (last_key.empty() ? "[]" : "." + last_key);
        open.push_back({{}, std::move(path)});
        last_key.clear();
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!open.empty()) open.pop_back();
        last_key.clear();
        break;
      case Json::parse_event_t::key:
        if (open.empty()) break;
        last_key = parsed.is_string() ? parsed.get<std::string>() : parsed.dump();
        if (!open.back().keys.insert(last_key).second) {
          std::string where = open.back().path.empty() ? "the top level" : open.back().path.substr(1);
          throw Refused{"the key \"" + last_key + "\" is given twice in " + where};
        }
        break;
      case Json::parse_event_t::value:
        // Inside an array the next value has no key of its own.
        if (!open.empty() && open.back().keys.empty()) last_key.clear();
        break;
    }
    return true;
  };
  try {
    return R::ok(Json::parse(text.begin(), text.end(), callback));
  } catch (const Refused& e) {
    return R::fail(e.why);
  } catch (const Json::exception& e) {  // syntax, numbers out of range, bad UTF-8
    return R::fail(std::string("not valid JSON (") + e.what() + ")");
  } catch (const std::exception& e) {  // bad_alloc, length_error
    return R::fail(std::string("cannot be read: ") + e.what());
  }
}

}  // namespace rocmdoc
