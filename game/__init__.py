"""Hong Wu pygame-ce client (scenes, table rendering, input, i18n, audio)."""
