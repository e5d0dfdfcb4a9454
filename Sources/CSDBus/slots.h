#ifndef MHZ_CSDBUS_SLOTS_H
#define MHZ_CSDBUS_SLOTS_H
/* Inside CSDBus only: the slot functions of sd-bus (sd_bus_loader.c) and the context a
 * floating slot owns (slots.c), shared by the calls, objects and MPRIS vtables. */
#include "CSDBus.h"

int mhz_sd_bus_call_async_slot(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m,
                               sd_bus_message_handler_t callback, void *userdata, uint64_t usec);
int mhz_sd_bus_add_object_slot(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback,
                               void *userdata);
int mhz_sd_bus_add_object_vtable_slot(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                                      const sd_bus_vtable *vtable, void *userdata);
int mhz_sd_bus_slot_set_floating(sd_bus_slot *slot, int b);
int mhz_sd_bus_slot_set_destroy_callback(sd_bus_slot *slot, sd_bus_destroy_t callback);
sd_bus_slot *mhz_sd_bus_slot_unref(sd_bus_slot *slot);
/* libsystemd's sd_bus_object_vtable_format, once the library is loaded. */
const unsigned *mhz_sd_bus_vtable_format(void);

/* A Swift context and how to let go of it, owned by one slot: `handler` for an MPRIS
 * vtable, `callback` for a call or an object. */
typedef struct {
    mhz_mpris_handler handler;
    sd_bus_message_handler_t callback;
    void *userdata;
    mhz_release_fn release;
} mhz_slot_context;

/* A context, or NULL after releasing `userdata` when memory is short. */
mhz_slot_context *mhz_slot_context_new(mhz_mpris_handler handler, sd_bus_message_handler_t callback, void *userdata,
                                       mhz_release_fn release);

/* Gives `slot`, just created with `context` as its userdata (or not, when `r` < 0), to the
 * bus; returns `r`. */
int mhz_slot_adopt(int r, sd_bus_slot *slot, mhz_slot_context *context);
#endif
