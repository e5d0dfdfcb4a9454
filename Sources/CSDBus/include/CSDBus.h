#ifndef MHZ_CSDBUS_H
#define MHZ_CSDBUS_H
/* libsystemd's sd-bus, as much of it as mhz's desktop integration calls, loaded on first use
 * (see sd_bus_loader.c). sd-bus.h is included for its types and constants only: every
 * function mhz calls is one of the mhz_-prefixed trampolines below, and none of sd-bus.h's
 * own functions may be called (libsystemd is not linked, so calling one fails to link). */
#include <systemd/sd-bus.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/eventfd.h>

/* What mhz_sd_bus_open returns when libsystemd.so.0 could not be loaded ("Can not access a
 * needed shared library"); mhz_sd_bus_load_error says why. An enum, so Swift sees it. */
enum { MHZ_SD_BUS_UNAVAILABLE = -ELIBACC };

/* Why libsystemd.so.0 could not be loaded (dlerror's words), or NULL when it was, or was
 * not tried. */
const char *mhz_sd_bus_load_error(void);

/* A client connection to the bus at `address` (D-Bus address syntax, "unix:path=…"):
 * sd_bus_new, sd_bus_set_address, sd_bus_set_bus_client, sd_bus_set_trusted, sd_bus_start.
 * Loads libsystemd first. Returns a negative errno (MHZ_SD_BUS_UNAVAILABLE when the library
 * is missing), or 0 with *ret set. The connection is not ready until sd_bus_is_ready says
 * so: sd_bus_start only connects and queues the authentication and Hello(). */
int mhz_sd_bus_open(const char *address, sd_bus **ret);

/* Releases that must run once per registration or call, whatever ends it: the userdata a
 * Swift callback box was retained for. */
typedef void (*mhz_release_fn)(void *userdata);

/* Asynchronous method call whose slot is floating (freed with the bus) and calls `release`
 * on `userdata` when it is freed, so a reply that never comes cannot leak nor outlive its
 * Swift context. */
int mhz_sd_bus_call_async(sd_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata,
                          mhz_release_fn release, uint64_t usec);

/* sd_bus_add_object with a floating slot that calls `release` on `userdata` when freed:
 * every message to `path` reaches `callback`. */
int mhz_sd_bus_add_object(sd_bus *bus, const char *path, sd_bus_message_handler_t callback, void *userdata,
                          mhz_release_fn release);

/* What an MPRIS callback is asked to do. */
typedef enum {
    /* A method call: read the arguments from `message`. Return 0 and the C side replies
     * with no values; return a negative errno (after sd_bus_error_set on `error`, for a
     * named D-Bus error) and sd-bus replies with that error. */
    MHZ_MPRIS_METHOD = 0,
    /* A property read: append the property's value (of its declared signature) to
     * `message`, the reply, and return 0 or positive. */
    MHZ_MPRIS_GET = 1,
    /* A property write: read the new value (of its declared signature) from `message`. */
    MHZ_MPRIS_SET = 2,
} mhz_mpris_request;

/* The one callback behind both MPRIS vtables: every method and property of
 * org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player arrives here with its interface
 * and member name, so the player's logic stays in one place (Swift). */
typedef int (*mhz_mpris_handler)(void *userdata, mhz_mpris_request request, const char *interface,
                                 const char *member, sd_bus_message *message, sd_bus_error *error);

/* Publishes both MPRIS interfaces at /org/mpris/MediaPlayer2. Two floating slots; each
 * calls `release(userdata)` when freed (so a caller retains its context twice). */
int mhz_mpris_add(sd_bus *bus, mhz_mpris_handler handler, void *userdata, mhz_release_fn release);

/* The trampolines: each is libsystemd's function of the same name without "mhz_". Valid
 * only on a bus mhz_sd_bus_open returned (the library is loaded by then). */
int mhz_sd_bus_get_fd(sd_bus *bus);
int mhz_sd_bus_get_events(sd_bus *bus);
int mhz_sd_bus_get_timeout(sd_bus *bus, uint64_t *timeout_usec);
int mhz_sd_bus_process(sd_bus *bus, sd_bus_message **ret);
int mhz_sd_bus_is_ready(sd_bus *bus);
int mhz_sd_bus_flush(sd_bus *bus);
sd_bus *mhz_sd_bus_flush_close_unref(sd_bus *bus);
int mhz_sd_bus_get_unique_name(sd_bus *bus, const char **unique);
int mhz_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie);
int mhz_sd_bus_emit_properties_changed_strv(sd_bus *bus, const char *path, const char *interface, char **names);
int mhz_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path,
                                       const char *interface, const char *member);
int mhz_sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m);
int mhz_sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface,
                                  const char *member);
sd_bus_message *mhz_sd_bus_message_unref(sd_bus_message *m);
int mhz_sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p);
int mhz_sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents);
int mhz_sd_bus_message_close_container(sd_bus_message *m);
int mhz_sd_bus_message_read_basic(sd_bus_message *m, char type, void *p);
int mhz_sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents);
int mhz_sd_bus_message_exit_container(sd_bus_message *m);
int mhz_sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents);
int mhz_sd_bus_message_skip(sd_bus_message *m, const char *types);
int mhz_sd_bus_message_is_method_error(sd_bus_message *m, const char *name);
const sd_bus_error *mhz_sd_bus_message_get_error(sd_bus_message *m);
const char *mhz_sd_bus_message_get_member(sd_bus_message *m);
const char *mhz_sd_bus_message_get_interface(sd_bus_message *m);
const char *mhz_sd_bus_message_get_path(sd_bus_message *m);
int mhz_sd_bus_error_set(sd_bus_error *e, const char *name, const char *message);

/* The counter that wakes a bus's thread when another thread has work for it: eventfd(2)
 * lives in no module Swift imports here. Non-blocking, so the thread empties it without
 * waiting. */
static inline int mhz_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
#endif
