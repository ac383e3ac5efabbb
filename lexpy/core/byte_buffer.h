/* lxp_byte_buffer: a growing malloc'ed run of bytes, appended to without
 * the GIL (XPath's string-values, the extractors' text). The owner frees
 * data; a zeroed struct is an empty buffer.
 */
#ifndef LEXPY_BYTE_BUFFER_H
#define LEXPY_BYTE_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} lxp_byte_buffer;

/* Append length bytes: 0, or -1 when out of memory (the buffer unchanged).
 * The capacity starts at 256 and doubles. */
static inline int lxp_byte_buffer_append(lxp_byte_buffer *buffer,
                                         const uint8_t *data, size_t length)
{
    if (length > buffer->capacity - buffer->length) {
        size_t capacity = buffer->capacity < 256 ? 256 : buffer->capacity;
        uint8_t *grown;
        if (length > SIZE_MAX / 2 - buffer->length)
            return -1;
        while (capacity < buffer->length + length)
            capacity *= 2;
        grown = (uint8_t *) realloc(buffer->data, capacity);
        if (grown == NULL)
            return -1;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    if (length) {
        memcpy(buffer->data + buffer->length, data, length);
        buffer->length += length;
    }
    return 0;
}

#endif
