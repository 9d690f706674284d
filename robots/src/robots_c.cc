// placeholder: implementation lands in the next commit
