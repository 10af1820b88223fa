@rem npm start on Windows: npm runs the start script ("exec node scripts/start.mjs ...") through cmd.exe,
@rem which has no exec and looks for commands in the current folder first. This runs the rest of the line.
@%*
