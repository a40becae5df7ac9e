#include "studio/studio_server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <sys/socket.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "studio/studio_page.h"
#include "util/bytes.h"

namespace lbt::studio {

namespace {

// Whether two secrets are equal, in time that does not depend on where
// they first differ.
bool SameSecret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// The names this server answers to: a page served from any other name
// (DNS rebinding) is refused.
bool IsOwnHost(const std::string& host, int port) {
  for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) {
    if (host == fmt::format("{}:{}", name, port)) return true;
  }
  return false;
}

void Refuse(httplib::Response& response, int status, std::string_view why) {
  response.status = status;
  response.set_content(nlohmann::json{{"ok", false}, {"error", why}}.dump(), "application/json");
}

// Headers every answer carries: no caching, no referrer (the page's URL
// holds the token), no framing, scripts and fetches from this origin only.
void SetSafetyHeaders(httplib::Response& response) {
  response.set_header("Cache-Control", "no-store");
  response.set_header("Referrer-Policy", "no-referrer");
  response.set_header("X-Content-Type-Options", "nosniff");
  response.set_header("Content-Security-Policy",
                      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                      "img-src data:; connect-src 'self'; frame-ancestors 'none'; form-action 'none'");
}

}  // namespace

Result<std::string> NewToken() {
  unsigned char bytes[16] = {};
  FILE* random = std::fopen("/dev/urandom", "rb");
  const size_t got = random != nullptr ? std::fread(bytes, 1, sizeof(bytes), random) : 0;
  if (random != nullptr) std::fclose(random);
  if (got != sizeof(bytes)) return Status::IOError("cannot read /dev/urandom for the studio's token");
  std::string token;
  for (unsigned char b : bytes) token += fmt::format("{:02x}", b);
  return token;
}

StudioServer::StudioServer(StudioApi* api, std::string token)
    : api_(api), token_(std::move(token)), http_(std::make_unique<httplib::Server>()) {}

StudioServer::~StudioServer() = default;

Result<std::unique_ptr<StudioServer>> StudioServer::Listen(StudioApi* api, int port, std::string token) {
  std::unique_ptr<StudioServer> server(new StudioServer(api, std::move(token)));
  // The port alone: cpp-httplib's default also sets SO_REUSEPORT, with
  // which a second studio on a port in use would start and share its
  // requests with the first.
  server->http_->set_socket_options([](int socket) {
    int yes = 1;
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  // A statement is a line: a body past a megabyte is not one.
  server->http_->set_payload_max_length(size_t{1} << 20);
  server->Route();
  const int bound = port == 0 ? server->http_->bind_to_any_port("127.0.0.1")
                              : (server->http_->bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound <= 0) return Status::IOError(fmt::format("cannot listen on 127.0.0.1:{}: the port is in use", port));
  server->port_ = bound;
  return server;
}

std::string StudioServer::url() const { return fmt::format("http://127.0.0.1:{}/?token={}", port_, token_); }

void StudioServer::Run() { http_->listen_after_bind(); }

void StudioServer::Stop() { http_->stop(); }

void StudioServer::Route() {
  // Every request: this machine's name in Host, then the token.
  http_->set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    SetSafetyHeaders(response);
    if (!IsOwnHost(request.get_header_value("Host"), port_)) {
      Refuse(response, 403, "this server answers only to 127.0.0.1 and localhost");
      return httplib::Server::HandlerResponse::Handled;
    }
    const std::string token =
        request.path == "/" ? request.get_param_value("token") : request.get_header_value("X-Lbt-Token");
    if (!SameSecret(token, token_)) {
      Refuse(response, 403, "open the address lbt studio printed: it carries the token");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  http_->Get("/", [](const httplib::Request&, httplib::Response& response) {
    response.set_content(std::string(StudioPage()), "text/html; charset=utf-8");
  });
  // The SQL editor's completions.
  http_->Post("/api/words", [](const httplib::Request&, httplib::Response& response) {
    response.set_content(StudioApi::Words(), "application/json");
  });
  // The instance statements run in (the page's header).
  http_->Post("/api/where", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(api_->Where(), "application/json");
  });
  // Stops the statement running now (the page's Stop button).
  http_->Post("/api/cancel", [this](const httplib::Request&, httplib::Response& response) {
    api_->Cancel();
    response.set_content(R"({"ok":true})", "application/json");
  });
  // {"statement": "read t prefix=a"} -> StudioApi's answer.
  http_->Post("/api/run", [this](const httplib::Request& request, httplib::Response& response) {
    if (!JsonNestsAtMost(request.body, 4)) return Refuse(response, 400, "expected {\"statement\": \"...\"}");
    const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
    if (!body.is_object() || !body.contains("statement") || !body["statement"].is_string()) {
      return Refuse(response, 400, "expected {\"statement\": \"...\"}");
    }
    response.set_content(api_->Run(body["statement"].get<std::string>()), "application/json");
  });
}

}  // namespace lbt::studio
