#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
