// jemalloc's options for lbt-grpc (linked only where the build found
// jemalloc: shell/CMakeLists.txt), read once by jemalloc as it starts.

extern "C" {
// Freed pages go back to the system within a second instead of
// jemalloc's ten, so that lbt serve's memory follows its load back down
// after an import instead of holding the peak.
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0";
}
