/* The two MPRIS interfaces as sd-bus vtables. sd-bus builds vtables only with C macros
 * (SD_BUS_VTABLE_START, SD_BUS_METHOD, SD_BUS_PROPERTY, …), so they are here; every entry
 * forwards to the one Swift handler with its member's name, so what the player does and
 * answers is decided in Swift (Sources/Desktop/MPRISPlayer.swift). */
/* SD_BUS_VTABLE_START takes the address of libsystemd's sd_bus_object_vtable_format, a
 * symbol whose reference only makes the linker insist on a libsystemd new enough for this
 * vtable layout. libsystemd is not linked here, so the macro is pointed at a stand-in, and
 * the real address (dlsym) is put in place before a vtable is first registered. */
#define sd_bus_object_vtable_format mhz_vtable_format_stand_in
#include "slots.h"

#include <pthread.h>
#include <stddef.h>

const unsigned mhz_vtable_format_stand_in = 242;

static int method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    mhz_slot_context *c = userdata;
    int r = c->handler(c->userdata, MHZ_MPRIS_METHOD, mhz_sd_bus_message_get_interface(m),
                       mhz_sd_bus_message_get_member(m), m, error);
    if (r < 0) return r;
    /* sd_bus_add_object_vtable(3): "To send a reply from handler, call
     * sd_bus_reply_method_return(3) with the message the callback was invoked with" — here
     * its non-variadic parts, since no MPRIS method returns anything. "If bus is NULL, the
     * bus that m is attached to is used" (sd_bus_send(3)). */
    sd_bus_message *reply = NULL;
    r = mhz_sd_bus_message_new_method_return(m, &reply);
    if (r < 0) return r;
    r = mhz_sd_bus_send(NULL, reply, NULL);
    mhz_sd_bus_message_unref(reply);
    return r < 0 ? r : 1;
}

static int get(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
               void *userdata, sd_bus_error *error) {
    (void)bus;
    (void)path;
    mhz_slot_context *c = userdata;
    return c->handler(c->userdata, MHZ_MPRIS_GET, interface, property, reply, error);
}

static int set(sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *value,
               void *userdata, sd_bus_error *error) {
    (void)bus;
    (void)path;
    mhz_slot_context *c = userdata;
    return c->handler(c->userdata, MHZ_MPRIS_SET, interface, property, value, error);
}

#define CONST_PROPERTY(name, signature) SD_BUS_PROPERTY(name, signature, get, 0, SD_BUS_VTABLE_PROPERTY_CONST)
#define CHANGING_PROPERTY(name, signature) \
    SD_BUS_PROPERTY(name, signature, get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

/* https://specifications.freedesktop.org/mpris-spec/latest/Media_Player.html: the optional
 * Fullscreen, CanSetFullscreen and DesktopEntry are left out (no window, no .desktop file). */
static sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Raise", "", "", method, 0),
    SD_BUS_METHOD("Quit", "", "", method, 0),
    CONST_PROPERTY("CanQuit", "b"),
    CONST_PROPERTY("CanRaise", "b"),
    CONST_PROPERTY("HasTrackList", "b"),
    CONST_PROPERTY("Identity", "s"),
    CONST_PROPERTY("SupportedUriSchemes", "as"),
    CONST_PROPERTY("SupportedMimeTypes", "as"),
    SD_BUS_VTABLE_END,
};

/* https://specifications.freedesktop.org/mpris-spec/latest/Player_Interface.html (the
 * optional LoopStatus and Shuffle left out). Position has no flag: the spec says of it "the
 * org.freedesktop.DBus.Properties.PropertiesChanged signal is not emitted when this property
 * changes", and sd-bus introspects a property without EMITS_CHANGE as EmitsChangedSignal
 * false. Rate is read/write in the spec; the handler ignores writes, since a radio plays at
 * one speed (MinimumRate = MaximumRate = 1.0), so it never changes. (sd-bus refuses a
 * writable property marked CONST with EINVAL.) */
static sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Next", "", "", method, 0),
    SD_BUS_METHOD("Previous", "", "", method, 0),
    SD_BUS_METHOD("Pause", "", "", method, 0),
    SD_BUS_METHOD("PlayPause", "", "", method, 0),
    SD_BUS_METHOD("Stop", "", "", method, 0),
    SD_BUS_METHOD("Play", "", "", method, 0),
    SD_BUS_METHOD_WITH_ARGS("Seek", SD_BUS_ARGS("x", Offset), SD_BUS_NO_RESULT, method, 0),
    SD_BUS_METHOD_WITH_ARGS("SetPosition", SD_BUS_ARGS("o", TrackId, "x", Position), SD_BUS_NO_RESULT, method, 0),
    SD_BUS_METHOD_WITH_ARGS("OpenUri", SD_BUS_ARGS("s", Uri), SD_BUS_NO_RESULT, method, 0),
    SD_BUS_SIGNAL_WITH_ARGS("Seeked", SD_BUS_ARGS("x", Position), 0),
    CHANGING_PROPERTY("PlaybackStatus", "s"),
    SD_BUS_WRITABLE_PROPERTY("Rate", "d", get, set, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    CHANGING_PROPERTY("Metadata", "a{sv}"),
    SD_BUS_WRITABLE_PROPERTY("Volume", "d", get, set, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Position", "x", get, 0, 0),
    CONST_PROPERTY("MinimumRate", "d"),
    CONST_PROPERTY("MaximumRate", "d"),
    CHANGING_PROPERTY("CanGoNext", "b"),
    CONST_PROPERTY("CanGoPrevious", "b"),
    CONST_PROPERTY("CanPlay", "b"),
    CONST_PROPERTY("CanPause", "b"),
    CHANGING_PROPERTY("CanSeek", "b"),
    CONST_PROPERTY("CanControl", "b"),
    SD_BUS_VTABLE_END,
};

static int add(sd_bus *bus, const char *interface, const sd_bus_vtable *vtable, mhz_mpris_handler handler,
               void *userdata, mhz_release_fn release) {
    mhz_slot_context *c = mhz_slot_context_new(handler, NULL, userdata, release);
    if (c == NULL) return -ENOMEM;
    sd_bus_slot *slot = NULL;
    int r = mhz_sd_bus_add_object_vtable_slot(bus, &slot, "/org/mpris/MediaPlayer2", interface, vtable, c);
    return mhz_slot_adopt(r, slot, c);
}

static pthread_once_t format_once = PTHREAD_ONCE_INIT;

static void use_real_format(void) {
    const unsigned *format = mhz_sd_bus_vtable_format();
    if (format == NULL) return;
    root_vtable[0].x.start.vtable_format_reference = format;
    player_vtable[0].x.start.vtable_format_reference = format;
}

int mhz_mpris_add(sd_bus *bus, mhz_mpris_handler handler, void *userdata, mhz_release_fn release) {
    pthread_once(&format_once, use_real_format);
    int r = add(bus, "org.mpris.MediaPlayer2", root_vtable, handler, userdata, release);
    if (r < 0) {
        /* The second retain was meant for the player interface's slot. */
        if (release) release(userdata);
        return r;
    }
    return add(bus, "org.mpris.MediaPlayer2.Player", player_vtable, handler, userdata, release);
}
