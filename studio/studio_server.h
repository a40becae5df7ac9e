// lbt studio's web server: the page (studio_page.h) and the JSON API
// (studio_api.h) on loopback, for one person's browser. Every request must
// name this machine in its Host header (a web page that rebinds a name of
// its own to 127.0.0.1 is refused) and carry the token printed with the
// URL (another local user, or a page of another origin, has none): the
// page in its query (?token=), the API in the X-Lbt-Token header, which no
// form of another origin can send.

#ifndef LBT_STUDIO_STUDIO_SERVER_H_
#define LBT_STUDIO_STUDIO_SERVER_H_

#include <memory>
#include <string>

#include "api/status.h"
#include "studio/studio_api.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace lbt::studio {

// 32 hex digits from the system's random source; IOError if it cannot be
// read (never a predictable token).
Result<std::string> NewToken();

class StudioServer {
 public:
  // Binds 127.0.0.1:`port` (0: a free port). IOError in one line when the
  // port is taken. REQUIRES: `api` outlives the server.
  static Result<std::unique_ptr<StudioServer>> Listen(StudioApi* api, int port, std::string token);
  ~StudioServer();

  int port() const { return port_; }
  // The address to open: http://127.0.0.1:PORT/?token=TOKEN.
  std::string url() const;
  // Serves until Stop(), from another thread.
  void Run();
  void Stop();

 private:
  StudioServer(StudioApi* api, std::string token);
  void Route();

  StudioApi* const api_;
  const std::string token_;
  std::unique_ptr<httplib::Server> http_;
  int port_ = 0;
};

}  // namespace lbt::studio

#endif  // LBT_STUDIO_STUDIO_SERVER_H_
