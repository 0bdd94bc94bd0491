#ifndef BOOTAB_VERSION_H
#define BOOTAB_VERSION_H
#define BOOTAB_VERSION "0.1.0"
#endif
