/* libsystemd's sd-bus, loaded when mhz first connects to a bus instead of when mhz starts.
 *
 * libsystemd.so.0 brings six more libraries (libcap, libgcrypt, libgpg-error, liblzma,
 * libzstd, liblz4); linked normally, every run of mhz would map and relocate them before
 * main, and start-up time and memory are benchmarked (BENCHMARKS.md). As in CMpv, the
 * functions mhz calls are trampolines: the first mhz_sd_bus_open opens libsystemd.so.0 with
 * dlopen(3) and looks every function up with dlsym(3), once (pthread_once(3)). Unlike CMpv's
 * they carry an mhz_ prefix: libmpv depends on libsystemd too, and a definition named
 * sd_bus_new in the executable would interpose on libsystemd's own for every library that
 * calls it. When the library cannot be loaded, mhz_sd_bus_open fails with
 * MHZ_SD_BUS_UNAVAILABLE and mhz_sd_bus_load_error says why. */
#include "slots.h"

#include <dlfcn.h>
#include <pthread.h>

static struct {
    int (*new_bus)(sd_bus **);
    int (*set_address)(sd_bus *, const char *);
    int (*set_bus_client)(sd_bus *, int);
    int (*set_trusted)(sd_bus *, int);
    int (*start)(sd_bus *);
    sd_bus *(*unref)(sd_bus *);
    int (*get_fd)(sd_bus *);
    int (*get_events)(sd_bus *);
    int (*get_timeout)(sd_bus *, uint64_t *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*is_ready)(sd_bus *);
    int (*flush)(sd_bus *);
    sd_bus *(*flush_close_unref)(sd_bus *);
    int (*get_unique_name)(sd_bus *, const char **);
    int (*send)(sd_bus *, sd_bus_message *, uint64_t *);
    int (*call_async)(sd_bus *, sd_bus_slot **, sd_bus_message *, sd_bus_message_handler_t, void *, uint64_t);
    int (*add_object)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *);
    int (*add_object_vtable)(sd_bus *, sd_bus_slot **, const char *, const char *, const sd_bus_vtable *, void *);
    int (*slot_set_floating)(sd_bus_slot *, int);
    int (*slot_set_destroy_callback)(sd_bus_slot *, sd_bus_destroy_t);
    sd_bus_slot *(*slot_unref)(sd_bus_slot *);
    int (*emit_properties_changed_strv)(sd_bus *, const char *, const char *, char **);
    int (*message_new_method_call)(sd_bus *, sd_bus_message **, const char *, const char *, const char *, const char *);
    int (*message_new_method_return)(sd_bus_message *, sd_bus_message **);
    int (*message_new_signal)(sd_bus *, sd_bus_message **, const char *, const char *, const char *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    int (*message_append_basic)(sd_bus_message *, char, const void *);
    int (*message_open_container)(sd_bus_message *, char, const char *);
    int (*message_close_container)(sd_bus_message *);
    int (*message_read_basic)(sd_bus_message *, char, void *);
    int (*message_enter_container)(sd_bus_message *, char, const char *);
    int (*message_exit_container)(sd_bus_message *);
    int (*message_peek_type)(sd_bus_message *, char *, const char **);
    int (*message_skip)(sd_bus_message *, const char *);
    int (*message_is_method_error)(sd_bus_message *, const char *);
    const sd_bus_error *(*message_get_error)(sd_bus_message *);
    const char *(*message_get_member)(sd_bus_message *);
    const char *(*message_get_interface)(sd_bus_message *);
    const char *(*message_get_path)(sd_bus_message *);
    int (*error_set)(sd_bus_error *, const char *, const char *);
} api;

static const unsigned *vtable_format;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *load_error;
static int loaded;

static void load(void) {
    void *handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_error = dlerror();
        return;
    }
#define FIND(field, name) *(void **)(&api.field) = dlsym(handle, name)
    FIND(new_bus, "sd_bus_new");
    FIND(set_address, "sd_bus_set_address");
    FIND(set_bus_client, "sd_bus_set_bus_client");
    FIND(set_trusted, "sd_bus_set_trusted");
    FIND(start, "sd_bus_start");
    FIND(unref, "sd_bus_unref");
    FIND(get_fd, "sd_bus_get_fd");
    FIND(get_events, "sd_bus_get_events");
    FIND(get_timeout, "sd_bus_get_timeout");
    FIND(process, "sd_bus_process");
    FIND(is_ready, "sd_bus_is_ready");
    FIND(flush, "sd_bus_flush");
    FIND(flush_close_unref, "sd_bus_flush_close_unref");
    FIND(get_unique_name, "sd_bus_get_unique_name");
    FIND(send, "sd_bus_send");
    FIND(call_async, "sd_bus_call_async");
    FIND(add_object, "sd_bus_add_object");
    FIND(add_object_vtable, "sd_bus_add_object_vtable");
    FIND(slot_set_floating, "sd_bus_slot_set_floating");
    FIND(slot_set_destroy_callback, "sd_bus_slot_set_destroy_callback");
    FIND(slot_unref, "sd_bus_slot_unref");
    FIND(emit_properties_changed_strv, "sd_bus_emit_properties_changed_strv");
    FIND(message_new_method_call, "sd_bus_message_new_method_call");
    FIND(message_new_method_return, "sd_bus_message_new_method_return");
    FIND(message_new_signal, "sd_bus_message_new_signal");
    FIND(message_unref, "sd_bus_message_unref");
    FIND(message_append_basic, "sd_bus_message_append_basic");
    FIND(message_open_container, "sd_bus_message_open_container");
    FIND(message_close_container, "sd_bus_message_close_container");
    FIND(message_read_basic, "sd_bus_message_read_basic");
    FIND(message_enter_container, "sd_bus_message_enter_container");
    FIND(message_exit_container, "sd_bus_message_exit_container");
    FIND(message_peek_type, "sd_bus_message_peek_type");
    FIND(message_skip, "sd_bus_message_skip");
    FIND(message_is_method_error, "sd_bus_message_is_method_error");
    FIND(message_get_error, "sd_bus_message_get_error");
    FIND(message_get_member, "sd_bus_message_get_member");
    FIND(message_get_interface, "sd_bus_message_get_interface");
    FIND(message_get_path, "sd_bus_message_get_path");
    FIND(error_set, "sd_bus_error_set");
#undef FIND
    vtable_format = dlsym(handle, "sd_bus_object_vtable_format");
    /* All of them exist since systemd 246 (sd_bus_slot_set_floating, the newest); an older
     * libsystemd is treated as no libsystemd. */
    void **fields = (void **)&api;
    for (size_t i = 0; i < sizeof(api) / sizeof(void *); i++) {
        if (fields[i] == NULL) {
            load_error = "libsystemd.so.0 lacks a function of sd-bus mhz needs (systemd 246 or later)";
            return;
        }
    }
    loaded = 1;
}

const char *mhz_sd_bus_load_error(void) { return load_error; }

const unsigned *mhz_sd_bus_vtable_format(void) { return vtable_format; }

int mhz_sd_bus_open(const char *address, sd_bus **ret) {
    pthread_once(&once, load);
    if (!loaded) return MHZ_SD_BUS_UNAVAILABLE;
    sd_bus *bus = NULL;
    int r = api.new_bus(&bus);
    if (r < 0) return r;
    /* sd_bus_set_bus_client(3): "the client mode is enabled and the bus object should
     * connect to a D-Bus daemon" (it says Hello() and gets a unique name), which the
     * sd_bus_open family sets by itself but a bus given its own address does not.
     * sd_bus_set_trusted(3): "If true, all connections on the bus are trusted and access to
     * all privileged and unprivileged methods is granted" — what sd_bus_open_user does on a
     * session bus; without it, every MPRIS call would make sd-bus ask the daemon for the
     * caller's credentials before answering. */
    if ((r = api.set_address(bus, address)) < 0 || (r = api.set_bus_client(bus, 1)) < 0 ||
        (r = api.set_trusted(bus, 1)) < 0 || (r = api.start(bus)) < 0) {
        api.unref(bus);
        return r;
    }
    *ret = bus;
    return 0;
}

/* The trampolines. Every one takes a bus, slot or message that only exists once the library
 * is loaded. */

int mhz_sd_bus_get_fd(sd_bus *bus) { return api.get_fd(bus); }
int mhz_sd_bus_get_events(sd_bus *bus) { return api.get_events(bus); }
int mhz_sd_bus_get_timeout(sd_bus *bus, uint64_t *timeout_usec) { return api.get_timeout(bus, timeout_usec); }
int mhz_sd_bus_process(sd_bus *bus, sd_bus_message **ret) { return api.process(bus, ret); }
int mhz_sd_bus_is_ready(sd_bus *bus) { return api.is_ready(bus); }
int mhz_sd_bus_flush(sd_bus *bus) { return api.flush(bus); }
sd_bus *mhz_sd_bus_flush_close_unref(sd_bus *bus) { return api.flush_close_unref(bus); }
int mhz_sd_bus_get_unique_name(sd_bus *bus, const char **unique) { return api.get_unique_name(bus, unique); }
int mhz_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie) { return api.send(bus, m, cookie); }
int mhz_sd_bus_emit_properties_changed_strv(sd_bus *bus, const char *path, const char *interface, char **names) {
    return api.emit_properties_changed_strv(bus, path, interface, names);
}
int mhz_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                       const char *interface, const char *member) {
    return api.message_new_method_call(bus, m, destination, path, interface, member);
}
int mhz_sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m) {
    return api.message_new_method_return(call, m);
}
int mhz_sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface,
                                  const char *member) {
    return api.message_new_signal(bus, m, path, interface, member);
}
sd_bus_message *mhz_sd_bus_message_unref(sd_bus_message *m) { return api.message_unref(m); }
int mhz_sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p) {
    return api.message_append_basic(m, type, p);
}
int mhz_sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents) {
    return api.message_open_container(m, type, contents);
}
int mhz_sd_bus_message_close_container(sd_bus_message *m) { return api.message_close_container(m); }
int mhz_sd_bus_message_read_basic(sd_bus_message *m, char type, void *p) { return api.message_read_basic(m, type, p); }
int mhz_sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents) {
    return api.message_enter_container(m, type, contents);
}
int mhz_sd_bus_message_exit_container(sd_bus_message *m) { return api.message_exit_container(m); }
int mhz_sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents) {
    return api.message_peek_type(m, type, contents);
}
int mhz_sd_bus_message_skip(sd_bus_message *m, const char *types) { return api.message_skip(m, types); }
int mhz_sd_bus_message_is_method_error(sd_bus_message *m, const char *name) {
    return api.message_is_method_error(m, name);
}
const sd_bus_error *mhz_sd_bus_message_get_error(sd_bus_message *m) { return api.message_get_error(m); }
const char *mhz_sd_bus_message_get_member(sd_bus_message *m) { return api.message_get_member(m); }
const char *mhz_sd_bus_message_get_interface(sd_bus_message *m) { return api.message_get_interface(m); }
const char *mhz_sd_bus_message_get_path(sd_bus_message *m) { return api.message_get_path(m); }
int mhz_sd_bus_error_set(sd_bus_error *e, const char *name, const char *message) {
    return api.error_set(e, name, message);
}
int mhz_sd_bus_call_async_slot(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m,
                               sd_bus_message_handler_t callback, void *userdata, uint64_t usec) {
    return api.call_async(bus, slot, m, callback, userdata, usec);
}
int mhz_sd_bus_add_object_slot(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback,
                               void *userdata) {
    return api.add_object(bus, slot, path, callback, userdata);
}
int mhz_sd_bus_add_object_vtable_slot(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                                      const sd_bus_vtable *vtable, void *userdata) {
    return api.add_object_vtable(bus, slot, path, interface, vtable, userdata);
}
int mhz_sd_bus_slot_set_floating(sd_bus_slot *slot, int b) { return api.slot_set_floating(slot, b); }
int mhz_sd_bus_slot_set_destroy_callback(sd_bus_slot *slot, sd_bus_destroy_t callback) {
    return api.slot_set_destroy_callback(slot, callback);
}
sd_bus_slot *mhz_sd_bus_slot_unref(sd_bus_slot *slot) { return api.slot_unref(slot); }
