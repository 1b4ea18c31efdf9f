//! The referee (placeholder).
