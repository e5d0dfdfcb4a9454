/* Slots whose lifetime the bus owns and whose end gives a Swift context back.
 *
 * A Swift callback's userdata is an object retained for the C side. It must be released
 * exactly once, whether the slot ends because the call was answered, timed out, or the bus
 * was freed with the call unanswered: sd_bus_slot_set_destroy_callback(3) covers all three.
 * And the slot must not keep the bus alive: sd_bus_slot_set_floating(3), "A floating bus slot
 * object's lifetime is bound to the lifetime of the bus object it is associated with, …
 * Regular (i.e. non-floating) bus slot objects keep the bus referenced". */
#include "slots.h"

#include <stdlib.h>

mhz_slot_context *mhz_slot_context_new(mhz_mpris_handler handler, sd_bus_message_handler_t callback, void *userdata,
                                       mhz_release_fn release) {
    mhz_slot_context *c = malloc(sizeof(mhz_slot_context));
    if (c == NULL) {
        if (release) release(userdata);
        return NULL;
    }
    c->handler = handler;
    c->callback = callback;
    c->userdata = userdata;
    c->release = release;
    return c;
}

/* The destroy callback receives the slot's userdata: the context. */
static void context_free(void *userdata) {
    mhz_slot_context *c = userdata;
    if (c->release) c->release(c->userdata);
    free(c);
}

int mhz_slot_adopt(int r, sd_bus_slot *slot, mhz_slot_context *context) {
    if (r < 0) {
        context_free(context);
        return r;
    }
    mhz_sd_bus_slot_set_destroy_callback(slot, context_free);
    /* "With sd_bus_slot_set_floating() a bus slot object allocated as regular can be
     * converted into a floating object … particularly useful for creating a bus slot
     * object, then changing parameters of it, and then turning it into a floating object,
     * whose lifecycle is managed by the bus object." Then our own reference goes. */
    mhz_sd_bus_slot_set_floating(slot, 1);
    mhz_sd_bus_slot_unref(slot);
    return r;
}

/* A call's or an object's Swift callback receives its own userdata, not the context. */
static int forward(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    mhz_slot_context *c = userdata;
    return c->callback(m, c->userdata, error);
}

int mhz_sd_bus_call_async(sd_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata,
                          mhz_release_fn release, uint64_t usec) {
    mhz_slot_context *c = mhz_slot_context_new(NULL, callback, userdata, release);
    if (c == NULL) return -ENOMEM;
    sd_bus_slot *slot = NULL;
    return mhz_slot_adopt(mhz_sd_bus_call_async_slot(bus, &slot, m, forward, c, usec), slot, c);
}

int mhz_sd_bus_add_object(sd_bus *bus, const char *path, sd_bus_message_handler_t callback, void *userdata,
                          mhz_release_fn release) {
    mhz_slot_context *c = mhz_slot_context_new(NULL, callback, userdata, release);
    if (c == NULL) return -ENOMEM;
    sd_bus_slot *slot = NULL;
    return mhz_slot_adopt(mhz_sd_bus_add_object_slot(bus, &slot, path, forward, c), slot, c);
}
