#include <jack/jack.h>
#include <jack/types.h>
#include <jack/thread.h>
#include <jack/midiport.h>
