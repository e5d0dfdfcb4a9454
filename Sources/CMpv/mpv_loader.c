/* libmpv, loaded when the first player is created instead of when mhz starts.
 *
 * libmpv brings about 230 shared libraries (FFmpeg, audio outputs, X11, Wayland, …). Linked
 * normally, every run of mhz maps and relocates all of them before main, which is most of
 * the start-up of a command that plays nothing (`mhz download`, `mhz channels`) and most
 * of its memory. Here the client API functions mhz calls are defined as trampolines: the
 * first call of any of them opens libmpv.so.2 with dlopen(3) and looks every function up
 * with dlsym(3), once (pthread_once(3)); each then calls libmpv's own. `dlsym(handle, …)`
 * searches "the shared object referred to by handle and the objects it depends on", so it
 * finds libmpv's definitions, not these. When libmpv cannot be loaded, mpv_create returns
 * NULL (as client.h allows: "NULL on error") and mhz_mpv_load_error says why. */
#include "CMpv.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static struct {
    mpv_handle *(*create)(void);
    int (*initialize)(mpv_handle *);
    void (*terminate_destroy)(mpv_handle *);
    int (*set_option)(mpv_handle *, const char *, mpv_format, void *);
    int (*set_option_string)(mpv_handle *, const char *, const char *);
    int (*command)(mpv_handle *, const char **);
    int (*command_node)(mpv_handle *, mpv_node *, mpv_node *);
    int (*command_async)(mpv_handle *, uint64_t, const char **);
    int (*set_property)(mpv_handle *, const char *, mpv_format, void *);
    int (*set_property_string)(mpv_handle *, const char *, const char *);
    int (*get_property)(mpv_handle *, const char *, mpv_format, void *);
    char *(*get_property_string)(mpv_handle *, const char *);
    int (*observe_property)(mpv_handle *, uint64_t, const char *, mpv_format);
    int (*request_log_messages)(mpv_handle *, const char *);
    mpv_event *(*wait_event)(mpv_handle *, double);
    void (*wakeup)(mpv_handle *);
    void (*free)(void *);
    void (*free_node_contents)(mpv_node *);
    const char *(*error_string)(int);
    const char *(*event_name)(mpv_event_id);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error;

static void load(void) {
    void *handle = dlopen("libmpv.so.2", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_error = dlerror();
        return;
    }
#define FIND(field, name) *(void **)(&api.field) = dlsym(handle, name)
    FIND(create, "mpv_create");
    FIND(initialize, "mpv_initialize");
    FIND(terminate_destroy, "mpv_terminate_destroy");
    FIND(set_option, "mpv_set_option");
    FIND(set_option_string, "mpv_set_option_string");
    FIND(command, "mpv_command");
    FIND(command_node, "mpv_command_node");
    FIND(command_async, "mpv_command_async");
    FIND(set_property, "mpv_set_property");
    FIND(set_property_string, "mpv_set_property_string");
    FIND(get_property, "mpv_get_property");
    FIND(get_property_string, "mpv_get_property_string");
    FIND(observe_property, "mpv_observe_property");
    FIND(request_log_messages, "mpv_request_log_messages");
    FIND(wait_event, "mpv_wait_event");
    FIND(wakeup, "mpv_wakeup");
    FIND(free, "mpv_free");
    FIND(free_node_contents, "mpv_free_node_contents");
    FIND(error_string, "mpv_error_string");
    FIND(event_name, "mpv_event_name");
#undef FIND
    /* A libmpv without one of them is not the client API 2.0 mhz is built for. */
    void **fields = (void **)&api;
    for (size_t i = 0; i < sizeof(api) / sizeof(void *); i++) {
        if (fields[i] == NULL) {
            load_error = "libmpv.so.2 lacks a function of the client API 2.0";
            api.create = NULL;
            return;
        }
    }
}

const char *mhz_mpv_load_error(void) { return load_error; }

/* Every function but mpv_create (and the two that describe codes and events) is only ever
 * called with a handle mpv_create returned, so the library is loaded by then. */
mpv_handle *mpv_create(void) {
    pthread_once(&once, load);
    return api.create ? api.create() : NULL;
}
int mpv_initialize(mpv_handle *ctx) { return api.initialize(ctx); }
void mpv_terminate_destroy(mpv_handle *ctx) { api.terminate_destroy(ctx); }
int mpv_set_option(mpv_handle *ctx, const char *name, mpv_format format, void *data) {
    return api.set_option(ctx, name, format, data);
}
int mpv_set_option_string(mpv_handle *ctx, const char *name, const char *data) {
    return api.set_option_string(ctx, name, data);
}
int mpv_command(mpv_handle *ctx, const char **args) { return api.command(ctx, args); }
int mpv_command_node(mpv_handle *ctx, mpv_node *args, mpv_node *result) { return api.command_node(ctx, args, result); }
int mpv_command_async(mpv_handle *ctx, uint64_t reply_userdata, const char **args) {
    return api.command_async(ctx, reply_userdata, args);
}
int mpv_set_property(mpv_handle *ctx, const char *name, mpv_format format, void *data) {
    return api.set_property(ctx, name, format, data);
}
int mpv_set_property_string(mpv_handle *ctx, const char *name, const char *data) {
    return api.set_property_string(ctx, name, data);
}
int mpv_get_property(mpv_handle *ctx, const char *name, mpv_format format, void *data) {
    return api.get_property(ctx, name, format, data);
}
char *mpv_get_property_string(mpv_handle *ctx, const char *name) { return api.get_property_string(ctx, name); }
int mpv_observe_property(mpv_handle *mpv, uint64_t reply_userdata, const char *name, mpv_format format) {
    return api.observe_property(mpv, reply_userdata, name, format);
}
int mpv_request_log_messages(mpv_handle *ctx, const char *min_level) { return api.request_log_messages(ctx, min_level); }
mpv_event *mpv_wait_event(mpv_handle *ctx, double timeout) { return api.wait_event(ctx, timeout); }
void mpv_wakeup(mpv_handle *ctx) { api.wakeup(ctx); }
void mpv_free(void *data) {
    if (api.free) api.free(data);
}
void mpv_free_node_contents(mpv_node *node) {
    if (api.free_node_contents) api.free_node_contents(node);
}
const char *mpv_error_string(int error) {
    pthread_once(&once, load);
    return api.error_string ? api.error_string(error) : "libmpv is not loaded";
}
const char *mpv_event_name(mpv_event_id event) {
    pthread_once(&once, load);
    return api.event_name ? api.event_name(event) : "unknown";
}
