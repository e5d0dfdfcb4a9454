// placeholder until this target's tests land
