// libchafa (Debian's libchafa-dev): images to terminal text, sixels, kitty and iTerm2 images.
#include <chafa.h>
